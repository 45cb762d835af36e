-- The till's catalogue is served from a per-instance cache of its compressed answer (decision 0064). Every committed
-- change of what it is read from (products, branch_products, batches) is announced on one channel, so that every
-- server instance drops its copies of that pharmacy: NOTIFY is delivered on commit, in commit order, to every
-- listening connection, and never for a rolled-back change. PostgreSQL folds identical notifications of one
-- transaction into one, so a sale of many lines or an import of 50,000 products sends one per pharmacy.
CREATE FUNCTION notify_pos_catalogue_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('pharmapoint_catalogue', OLD.pharmacy_id);
  ELSE
    PERFORM pg_notify('pharmapoint_catalogue', NEW.pharmacy_id);
    IF TG_OP = 'UPDATE' AND NEW.pharmacy_id IS DISTINCT FROM OLD.pharmacy_id THEN
      PERFORM pg_notify('pharmapoint_catalogue', OLD.pharmacy_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER products_pos_catalogue AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION notify_pos_catalogue_change();
CREATE TRIGGER branch_products_pos_catalogue AFTER INSERT OR UPDATE OR DELETE ON branch_products
  FOR EACH ROW EXECUTE FUNCTION notify_pos_catalogue_change();
CREATE TRIGGER batches_pos_catalogue AFTER INSERT OR UPDATE OR DELETE ON batches
  FOR EACH ROW EXECUTE FUNCTION notify_pos_catalogue_change();
