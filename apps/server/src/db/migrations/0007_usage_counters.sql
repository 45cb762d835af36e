-- Plan usage kept in one row per pharmacy (issue 6 item 7), so a plan limit is checked by one conditional UPDATE
-- of that row instead of a lock on the subscription and a count over the tables. The application changes a
-- counter in the transaction of the change it counts (subscription.service: assertWithinPlanLimit takes places,
-- releasePlanUsage gives them back). Meanings, as the former counts had them:
--   products      every product row (a deactivated product keeps its place)
--   users         active memberships, the platform's demo visitors left out
--   branches      active branches
--   transactions  sales of the current period (period_start on); no sales table exists yet, so 0
CREATE TABLE usage_counters (
  pharmacy_id text PRIMARY KEY REFERENCES pharmacies (id) ON DELETE CASCADE,
  products integer NOT NULL DEFAULT 0 CHECK (products >= 0),
  users integer NOT NULL DEFAULT 0 CHECK (users >= 0),
  branches integer NOT NULL DEFAULT 0 CHECK (branches >= 0),
  transactions integer NOT NULL DEFAULT 0 CHECK (transactions >= 0),
  period_start timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Backfill from the current rows.
INSERT INTO usage_counters (pharmacy_id, products, users, branches, transactions, period_start)
SELECT p.id,
       (SELECT count(*) FROM products x WHERE x.pharmacy_id = p.id),
       (SELECT count(*) FROM memberships m WHERE m.pharmacy_id = p.id AND m.is_active AND m.role <> 'demo'),
       (SELECT count(*) FROM branches b WHERE b.pharmacy_id = p.id AND b.is_active),
       0,
       COALESCE(s.start_date, p.created_at)
  FROM pharmacies p LEFT JOIN subscriptions s ON s.pharmacy_id = p.id;

ALTER TABLE usage_counters ENABLE ROW LEVEL SECURITY;
ALTER TABLE usage_counters FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON usage_counters
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
GRANT SELECT, INSERT, UPDATE ON usage_counters TO pharmapoint_app;
REVOKE DELETE ON usage_counters FROM pharmapoint_app;
