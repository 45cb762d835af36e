-- Secrets out of the application role's reach (issue 6 item 4, decisions 0014 and 0016). Password and PIN hashes
-- are read only on the owner connection, for the one comparison that needs them (sign-in, unlock, setting a PIN);
-- one-time link hashes are matched inside the database by a security-definer function that returns the link's id.
-- The application role keeps every other column; whether a secret is set is a generated column it may read.

ALTER TABLE users ADD COLUMN has_password boolean GENERATED ALWAYS AS (password_hash IS NOT NULL) STORED;
ALTER TABLE users ADD COLUMN has_pin boolean GENERATED ALWAYS AS (pin_hash IS NOT NULL) STORED;

REVOKE SELECT ON users FROM pharmapoint_app;
GRANT SELECT (id, email, name, phone, google_subject, email_verified_at, is_active, is_disabled, locked_until, login_attempts,
              last_login_at, last_logout_at, session_active, is_platform_operator, created_at, updated_at, has_password, has_pin)
  ON users TO pharmapoint_app;

-- One-time links get an id the application role may use once the database has matched the secret's hash.
ALTER TABLE one_time_tokens ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX one_time_tokens_id ON one_time_tokens (id);

REVOKE SELECT ON one_time_tokens FROM pharmapoint_app;
GRANT SELECT (id, user_id, pharmacy_id, purpose, expires_at, used_at, created_at) ON one_time_tokens TO pharmapoint_app;

-- The link with this hash and purpose, by id (never its hash). Owned by the migrating role, so it may read the column.
CREATE OR REPLACE FUNCTION one_time_token_id(p_token_hash text, p_purpose text) RETURNS uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
  AS $$ SELECT id FROM one_time_tokens WHERE token_hash = p_token_hash AND purpose = p_purpose $$;
REVOKE ALL ON FUNCTION one_time_token_id(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION one_time_token_id(text, text) TO pharmapoint_app;
