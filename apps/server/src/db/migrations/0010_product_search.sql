-- Product search under row-level security (issue 6 item 13). Under the tenant policy PostgreSQL may not use the
-- trigram index for `search_text LIKE`, because LIKE is not leakproof: it must filter by the policy first, so every
-- search read the pharmacy's whole products table. This function runs as the owner (who is not subject to the
-- policy), filters by the transaction's own tenant explicitly (app_pharmacy_id(), never a parameter) and can use
-- products_search_trgm. It returns ids only; the list query joins them under the policy as before.
CREATE FUNCTION product_ids_matching(pattern text) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT p.id FROM products p WHERE p.pharmacy_id = app_pharmacy_id() AND p.search_text LIKE pattern $$;
REVOKE ALL ON FUNCTION product_ids_matching(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION product_ids_matching(text) TO pharmapoint_app;
