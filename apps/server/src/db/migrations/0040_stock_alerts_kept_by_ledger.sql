-- Stock alerts of a change of quantity kept by the stock ledger, not by a trigger (decision 0078). Every change of
-- branch_products.quantity goes through the ledger (ledger.repository.ts: writeLedger and insertOpeningStock; a test
-- greps the server for any other UPDATE of it). Its lock statement reads what a row's alert depends on (the threshold,
-- the branch's else the product's, whether the product is active, its name), the ledger decides per row whether the
-- alert is set, cleared or left as it is, and its one write statement upserts or deletes it by primary key. The
-- statement-level trigger of migration 0036 ran refresh_stock_alerts (plpgsql, planned per call, migration 0037) after
-- every UPDATE of branch_products, also those that change no quantity (the sale's restamp of the stock reason): about
-- 1.2 ms of PostgreSQL CPU per stock adjustment, a fifth of it.
--
-- What stays with triggers: a branch threshold changed (below, one row at a time: the product screens change one
-- branch row), branch rows inserted or deleted, products created, renamed, (de)activated or given another threshold,
-- branches opened (migrations 0015, 0036, 0037).
GRANT INSERT, UPDATE, DELETE ON stock_alerts TO pharmapoint_app;

DROP TRIGGER stock_alerts_bp_update ON branch_products;
DROP FUNCTION stock_alerts_bp_updated();
-- stock_alerts_bp_changed (migration 0015) refreshes NEW's key; it fires only when an UPDATE names the column and
-- changes it, so the ledger's updates, which never name it, run no trigger at all.
CREATE TRIGGER stock_alerts_bp_threshold AFTER UPDATE OF low_stock_threshold ON branch_products
  FOR EACH ROW WHEN (OLD.low_stock_threshold IS DISTINCT FROM NEW.low_stock_threshold)
  EXECUTE FUNCTION stock_alerts_bp_changed();
