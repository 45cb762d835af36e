-- Product search in one scan of the trigram index (issue 6 item 13, decision 0074). Migration 0010's
-- product_ids_matching(pattern) took one word: a search of n words called it n times, read n sets of ids and
-- intersected them, and the list then joined the ids back to products under the tenant policy (without statistics,
-- by reading the pharmacy's whole table into a hash). This function takes every word's LIKE pattern at once and
-- runs ONE query, `search_text LIKE w1 AND search_text LIKE w2 ...`, so the GIN index intersects the trigrams of all
-- words in one bitmap scan and each matching row is read and rechecked once.
--
-- It returns, for the transaction's own tenant only (app_pharmacy_id(), never a parameter), the product columns
-- the list sorts and filters its matches by, named as in products, so the list reads them as `p` and reads only its
-- page's rows whole, under the policy. Like product_ids_matching it runs as its owner, who must bypass row-level
-- security for the index to be used (the superuser here; see decision 0063). The patterns are quoted into the
-- statement with format(%L): EXECUTE plans it for these words each time (a search is planned once either way).
-- No patterns: every product of the tenant. Without a tenant: nothing.
CREATE FUNCTION product_search(patterns text[])
  RETURNS TABLE (pharmacy_id text, id uuid, name text, sku text, category text, is_active boolean, is_dda boolean, low_stock_threshold integer)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 500
  AS $$
DECLARE
  pattern text;
  words text := '';
BEGIN
  FOREACH pattern IN ARRAY COALESCE(patterns, '{}') LOOP
    words := words || format(' AND p.search_text LIKE %L', pattern);
  END LOOP;
  RETURN QUERY EXECUTE
    'SELECT p.pharmacy_id, p.id, p.name, p.sku, p.category, p.is_active, p.is_dda, p.low_stock_threshold
       FROM products p WHERE p.pharmacy_id = $1' || words
    USING app_pharmacy_id();
END
$$;
REVOKE ALL ON FUNCTION product_search(text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION product_search(text[]) TO pharmapoint_app;
