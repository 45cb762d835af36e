-- Platform foundation: users, sessions, pharmacies (tenants), branches, memberships, settings,
-- subscriptions, usage, audit log and outbox. Tenant tables carry pharmacy_id in their primary key and
-- force row-level security on app.pharmacy_id, set per transaction by the server (see src/db/database.ts).

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pharmapoint_app') THEN
    CREATE ROLE pharmapoint_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database of the same cluster created it at the same moment
END $$;

-- The current tenant and user of the transaction ('' reads as NULL).
CREATE OR REPLACE FUNCTION app_pharmacy_id() RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT NULLIF(current_setting('app.pharmacy_id', true), '') $$;
CREATE OR REPLACE FUNCTION app_user_id() RETURNS uuid LANGUAGE sql STABLE
  AS $$ SELECT NULLIF(current_setting('app.user_id', true), '')::uuid $$;

-- ---------------------------------------------------------------- platform (not tenant-scoped)
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) <= 254),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  phone text,
  password_hash text,
  pin_hash text,
  google_subject text UNIQUE,
  email_verified_at timestamptz,
  is_active boolean NOT NULL DEFAULT true,
  is_disabled boolean NOT NULL DEFAULT false,
  locked_until timestamptz,
  login_attempts integer NOT NULL DEFAULT 0,
  last_login_at timestamptz,
  last_logout_at timestamptz,
  session_active boolean NOT NULL DEFAULT false,
  is_platform_operator boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pharmacies (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9_]{3,64}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  slug text UNIQUE,
  owner_email text,
  theme jsonb NOT NULL DEFAULT '{}'::jsonb,
  is_demo boolean NOT NULL DEFAULT false,
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  pharmacy_id text REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  locked_at timestamptz,
  revoked_at timestamptz,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE one_time_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'invite', 'magic_link')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX one_time_tokens_user ON one_time_tokens (user_id, purpose);

-- Side effects (email, SMS, M-Pesa, eTIMS) written in the transaction of their cause, sent by a worker.
-- Platform-level: a worker reads across tenants, and some messages (password reset) have no tenant.
CREATE TABLE outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  pharmacy_id text REFERENCES pharmacies (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('email', 'sms', 'stk_push', 'etims', 'webhook')),
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE sent_at IS NULL;

-- ---------------------------------------------------------------- tenant tables
CREATE TABLE branches (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  address text,
  phone text,
  is_default boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  UNIQUE (pharmacy_id, name)
);
CREATE UNIQUE INDEX branches_one_default ON branches (pharmacy_id) WHERE is_default;

CREATE TABLE memberships (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'manager', 'cashier', 'inventory', 'accounts', 'staff', 'user', 'demo')),
  permissions text[],
  allowed_branch_ids uuid[],
  default_branch_id uuid,
  has_pos_access boolean NOT NULL DEFAULT false,
  is_owner boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  invited_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, user_id),
  FOREIGN KEY (pharmacy_id, default_branch_id) REFERENCES branches (pharmacy_id, id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE settings (
  pharmacy_id text PRIMARY KEY REFERENCES pharmacies (id) ON DELETE CASCADE,
  document jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id)
);

CREATE TABLE subscriptions (
  pharmacy_id text PRIMARY KEY REFERENCES pharmacies (id) ON DELETE CASCADE,
  plan_id text NOT NULL CHECK (plan_id IN ('trial', 'standard')),
  status text NOT NULL CHECK (status IN ('trial', 'active', 'inactive')),
  start_date timestamptz NOT NULL DEFAULT now(),
  end_date timestamptz,
  trial_end_date timestamptz,
  auto_renew boolean NOT NULL DEFAULT false,
  payment_method text,
  last_payment_amount_cents bigint,
  last_payment_date timestamptz,
  currency text NOT NULL DEFAULT 'KES',
  hosting_status text,
  hosting_paid_until timestamptz,
  last_hosting_payment timestamptz,
  last_hosting_amount_cents bigint,
  hosting_payment_method text,
  max_products integer NOT NULL,
  max_transactions integer NOT NULL,
  max_users integer NOT NULL,
  max_branches integer NOT NULL,
  upgraded_from_trial boolean NOT NULL DEFAULT false,
  upgrade_date timestamptz,
  initialized_by text,
  initialization_method text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id)
);

-- Snapshots of usage counted from real rows (the latest by taken_at is shown).
CREATE TABLE usage_snapshots (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  current_products integer NOT NULL,
  current_transactions integer NOT NULL,
  current_users integer NOT NULL,
  current_branches integer NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id)
);

CREATE TABLE audit_log (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users (id),
  action text NOT NULL,
  entity text NOT NULL,
  entity_id text,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id)
);
CREATE INDEX audit_log_at ON audit_log (pharmacy_id, at DESC);

-- ---------------------------------------------------------------- row-level security
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['branches', 'settings', 'subscriptions', 'usage_snapshots', 'audit_log'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id())', t);
  END LOOP;
END $$;

-- A user sees their own memberships in every pharmacy (to pick one at sign-in); otherwise only the tenant's.
ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
ALTER TABLE memberships FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memberships
  USING (pharmacy_id = app_pharmacy_id() OR user_id = app_user_id())
  WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT USAGE ON SCHEMA public TO pharmapoint_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO pharmapoint_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO pharmapoint_app;
REVOKE ALL ON schema_migrations FROM pharmapoint_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO pharmapoint_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO pharmapoint_app;
