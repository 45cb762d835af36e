-- The session cache of every server instance (platform/session-cache.ts, decision 0062) is told of every change
-- that a cached session shows, whatever made it (a request of any instance, the job runner, an operator's SQL):
-- a row trigger sends NOTIFY pp_session_cache with the key of what changed, delivered at COMMIT to every
-- instance listening on the database (and never for a transaction that rolls back).
--   s:<token hash>   one session (sign-out, lock, unlock, switch of pharmacy or branch, revocation)
--   u:<user id>      every session of a user (their account, their memberships in any pharmacy)
--   p:<pharmacy id>  every session in a pharmacy (its name, theme, demo flag, its branches)
-- Only these five tables: none of them is written on a till's hot path (a sale, a stock change), so the NOTIFY
-- lock PostgreSQL takes at commit is not on it. PostgreSQL sends identical notifications of a transaction once.
CREATE FUNCTION session_cache_notify() RETURNS trigger
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('pp_session_cache', 's:' || r.token_hash);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('pp_session_cache', 'u:' || r.id::text);
  ELSIF TG_TABLE_NAME = 'memberships' THEN
    PERFORM pg_notify('pp_session_cache', 'u:' || r.user_id::text);
    IF TG_OP = 'UPDATE' AND OLD.user_id <> NEW.user_id THEN PERFORM pg_notify('pp_session_cache', 'u:' || OLD.user_id::text); END IF;
  ELSIF TG_TABLE_NAME = 'branches' THEN
    PERFORM pg_notify('pp_session_cache', 'p:' || r.pharmacy_id);
  ELSIF TG_TABLE_NAME = 'pharmacies' THEN
    PERFORM pg_notify('pp_session_cache', 'p:' || r.id);
  END IF;
  RETURN NULL;
END
$$;

-- Sessions: any update (they are rare: lock, unlock, sign-out, switch) or removal. A new session is never cached
-- before it exists, so INSERT needs none.
CREATE TRIGGER sessions_session_cache AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
-- Users: what a session shows or depends on; a failed sign-in's counters (login_attempts, locked_until) and
-- session_active / last_logout_at / updated_at change nothing a session shows.
CREATE TRIGGER users_session_cache_update AFTER UPDATE ON users FOR EACH ROW
  WHEN ((OLD.email, OLD.name, OLD.is_active, OLD.is_disabled, OLD.email_verified_at, OLD.google_subject, OLD.pin_hash,
         OLD.password_hash, OLD.last_login_at, OLD.is_platform_operator)
        IS DISTINCT FROM
        (NEW.email, NEW.name, NEW.is_active, NEW.is_disabled, NEW.email_verified_at, NEW.google_subject, NEW.pin_hash,
         NEW.password_hash, NEW.last_login_at, NEW.is_platform_operator))
  EXECUTE FUNCTION session_cache_notify();
CREATE TRIGGER users_session_cache_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
-- Memberships: a new one (an invitation accepted later, a demo place), any change, a removal.
CREATE TRIGGER memberships_session_cache AFTER INSERT OR UPDATE OR DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
-- Branches: GET /api/me lists them (names, default, active).
CREATE TRIGGER branches_session_cache AFTER INSERT OR UPDATE OR DELETE ON branches FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
-- Pharmacies: name, theme and demo flag are shown.
CREATE TRIGGER pharmacies_session_cache AFTER UPDATE OR DELETE ON pharmacies FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
