-- The till's catalogue cache finds its answers by the exact version of the rows they are read from (decision 0072):
-- nothing needs to be told when those rows change. The triggers of migration 0030 sent a NOTIFY from every
-- transaction that changed products, branch rows or batches — every sale — and PostgreSQL serialises the commits of
-- all transactions that notified (decision 0067), so they go.
DROP TRIGGER products_pos_catalogue ON products;
DROP TRIGGER branch_products_pos_catalogue ON branch_products;
DROP TRIGGER batches_pos_catalogue ON batches;
DROP FUNCTION notify_pos_catalogue_change();
