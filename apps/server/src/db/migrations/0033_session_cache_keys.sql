-- The session cache (decision 0062) on the instance that made a change, at once (decision 0073). Migration 0029's
-- triggers tell every instance through NOTIFY pp_session_cache, which reaches this instance's own LISTEN connection
-- a moment after COMMIT, possibly after the request that made the change has answered and its browser asked again.
-- They now also add their key to the transaction's own setting pharmapoint.session_cache (space-separated, each
-- key once; '*' when there are too many to list: drop everything), which the transaction layer reads at commit and
-- hands to this instance's cache before the request answers (platform/session-cache.ts). A transaction that wrote
-- none of these tables (a sale, a stock change) leaves the setting empty: nothing is dropped.
CREATE OR REPLACE FUNCTION session_cache_notify() RETURNS trigger
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
DECLARE
  r record;
  keys text[] := '{}';
  listed text;
  k text;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'sessions' THEN
    keys := ARRAY['s:' || r.token_hash];
  ELSIF TG_TABLE_NAME = 'users' THEN
    keys := ARRAY['u:' || r.id::text];
  ELSIF TG_TABLE_NAME = 'memberships' THEN
    keys := ARRAY['u:' || r.user_id::text];
    IF TG_OP = 'UPDATE' AND OLD.user_id <> NEW.user_id THEN keys := keys || ('u:' || OLD.user_id::text); END IF;
  ELSIF TG_TABLE_NAME = 'branches' THEN
    keys := ARRAY['p:' || r.pharmacy_id];
  ELSIF TG_TABLE_NAME = 'pharmacies' THEN
    keys := ARRAY['p:' || r.id];
  END IF;
  listed := coalesce(current_setting('pharmapoint.session_cache', true), '');
  FOREACH k IN ARRAY keys LOOP
    PERFORM pg_notify('pp_session_cache', k);
    IF listed = '*' THEN
      NULL;
    ELSIF length(listed) > 8000 THEN
      listed := '*';
    ELSIF position(' ' || k || ' ' IN listed) = 0 THEN
      listed := CASE WHEN listed = '' THEN ' ' ELSE listed END || k || ' ';
    END IF;
  END LOOP;
  PERFORM set_config('pharmapoint.session_cache', listed, true);
  RETURN NULL;
END
$$;
