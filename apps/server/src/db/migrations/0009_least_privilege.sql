-- Least privilege for the application role (issue 6 item 4, decision 0014). Until now pharmapoint_app could
-- UPDATE and DELETE every table. From here it reads and appends by default; UPDATE is granted table by table where
-- a use case changes rows (or locks them with SELECT ... FOR UPDATE, which needs it); DELETE only on the sign-in
-- throttle it prunes. The ledger, price changes, adjustments and the audit log are append-only for it.
-- A table added by a later migration gets SELECT and INSERT for the role, nothing more, unless it says so.

REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM pharmapoint_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON TABLES FROM pharmapoint_app;

-- Platform rows a request changes: the signed-in user's own account (sign-in counters, PIN, password, name),
-- the pharmacy's name and theme, sessions (branch, lock), one-time links (used).
GRANT UPDATE ON users, pharmacies, sessions, one_time_tokens TO pharmapoint_app;

-- Tenant rows that change in place (everything else of a tenant is written once).
GRANT UPDATE ON branches, memberships, settings, subscriptions, products, branch_products, batches,
  stock_transfers, stock_transfer_items, usage_counters, idempotency_keys TO pharmapoint_app;

-- The sign-in throttle: counted and pruned by sign-in (no tenant; see 0008).
GRANT UPDATE, DELETE ON login_throttle TO pharmapoint_app;
