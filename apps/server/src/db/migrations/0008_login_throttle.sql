-- Sign-in throttling kept in the database (issue 7 items 4 and 10), so every server instance on one database
-- sees the same counts. One row per client address and account name typed (the lower-cased email, whether an
-- account exists or not): failures in the current window. The per-pair count limits guessing on one account from
-- one address; the number of accounts an address failed on in the window limits password spraying. Platform-level
-- (no tenant): sign-in happens before any pharmacy is known.
CREATE TABLE login_throttle (
  ip text NOT NULL CHECK (length(ip) <= 100),
  account text NOT NULL CHECK (length(account) <= 254),
  failures integer NOT NULL CHECK (failures > 0),
  window_started_at timestamptz NOT NULL,
  last_failure_at timestamptz NOT NULL,
  PRIMARY KEY (ip, account)
);
CREATE INDEX login_throttle_recent ON login_throttle (ip, last_failure_at);
CREATE INDEX login_throttle_last_failure ON login_throttle (last_failure_at);
GRANT SELECT, INSERT, UPDATE, DELETE ON login_throttle TO pharmapoint_app;

-- "Known address" look-ups: has this user signed in from this address before?
CREATE INDEX sessions_user_ip ON sessions (user_id, ip);
