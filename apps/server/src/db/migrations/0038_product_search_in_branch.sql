-- Product search with the branch's row of each match, read by the owner (issue 6 item 13, decision 0074). A list
-- filtered by stock status (or sorted by quantity or price) needs the branch row of every match before it can
-- keep, sort and cut them to a page. The list looked those rows up itself, as the application role, one
-- primary-key lookup per match, and returned every match to be filtered; without a search that was every product
-- of the pharmacy, one lookup each. This function does the search of product_search (migration 0034), reads the
-- branch's rows and keeps the matches of the status asked for, in ONE statement, as its owner.
--
-- Tenant isolation as in product_search: the tenant is app_pharmacy_id() (the transaction's setting, never a
-- parameter); both products and branch_products are read for that tenant only. The branch is a parameter, so it is
-- checked to be one of the tenant's branches: a branch of another pharmacy (or none) gives no rows at all, and no
-- tenant gives no rows. No patterns: every product of the tenant, with its row in the branch.
--
-- It returns the product columns product_search returns, plus the three the status filter and the quantity and
-- price sorts read from the branch row (NULL when the product has no row in the branch): bp_quantity,
-- bp_selling_price_cents, bp_low_stock_threshold. `status` ('out', 'low', 'good'; NULL: every match) keeps only the
-- matches of that stock status in the branch, by the rule of the list (products.repository.ts, which applies it
-- again to what it gets) and of branchStockStatus (packages/domain): out when the quantity is 0 or less, low up to
-- the branch's threshold or else the product's (products.low_stock_threshold is NOT NULL), good above it. Kept
-- here, a status filter returns its few matches instead of every one (a status filter without a search: 50,000).
--
-- How the branch rows are read:
-- - A search: each match's row by key (LATERAL ... LIMIT 1, as the list did), a few thousand lookups at most for
--   a common word. Without statistics a plain join could be planned against the branch's whole table (decision 0063).
-- - No patterns (a status filter without a search): every product of the tenant, so every row of the branch — one
--   hash join of the tenant's products and the branch's rows. As 50,000 lookups it cost about 145 ms of database
--   CPU a request at 50,000 products (bench/products-search.ts 'status=low, no q'), and its estimated cost passed
--   jit_above_cost, so a request could also compile it. enable_nestloop = off (for this function's statements
--   only) keeps a table without statistics from being joined by a nested loop; a search's LATERAL lookup can only
--   be a nested loop, so it is unaffected, but the disabled path's added cost would pass jit_above_cost: jit = off.
CREATE FUNCTION product_search_in_branch(patterns text[], branch uuid, status text DEFAULT NULL)
  RETURNS TABLE (pharmacy_id text, id uuid, name text, sku text, category text, is_active boolean, is_dda boolean, low_stock_threshold integer,
                 bp_quantity integer, bp_selling_price_cents bigint, bp_low_stock_threshold integer)
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp SET enable_nestloop = off SET jit = off ROWS 500
  AS $$
DECLARE
  pattern text;
  words text := '';
  kept text;
  branch_row text;
BEGIN
  -- Fixed text only: the status picks one of these, the patterns are quoted (%L).
  kept := CASE status
    WHEN 'out' THEN ' AND COALESCE(x.quantity, 0) <= 0'
    WHEN 'low' THEN ' AND COALESCE(x.quantity, 0) > 0 AND COALESCE(x.quantity, 0) <= COALESCE(x.low_stock_threshold, p.low_stock_threshold)'
    WHEN 'good' THEN ' AND COALESCE(x.quantity, 0) > COALESCE(x.low_stock_threshold, p.low_stock_threshold)'
    ELSE '' END;
  IF status IS NOT NULL AND kept = '' THEN
    RAISE EXCEPTION 'product_search_in_branch: unknown status %', status USING ERRCODE = 'invalid_parameter_value';
  END IF;
  FOREACH pattern IN ARRAY COALESCE(patterns, '{}') LOOP
    words := words || format(' AND p.search_text LIKE %L', pattern);
  END LOOP;
  branch_row := CASE WHEN words = ''
    THEN 'LEFT JOIN branch_products x ON x.pharmacy_id = $1 AND x.branch_id = $2 AND x.product_id = p.id'
    ELSE 'LEFT JOIN LATERAL (SELECT b.quantity, b.selling_price_cents, b.low_stock_threshold FROM branch_products b
                              WHERE b.pharmacy_id = $1 AND b.branch_id = $2 AND b.product_id = p.id LIMIT 1) x ON true' END;
  RETURN QUERY EXECUTE
    'SELECT p.pharmacy_id, p.id, p.name, p.sku, p.category, p.is_active, p.is_dda, p.low_stock_threshold,
            x.quantity, x.selling_price_cents, x.low_stock_threshold
       FROM products p ' || branch_row || '
      WHERE p.pharmacy_id = $1
        AND EXISTS (SELECT 1 FROM branches br WHERE br.pharmacy_id = $1 AND br.id = $2)' || words || kept
    USING app_pharmacy_id(), branch;
END
$$;
REVOKE ALL ON FUNCTION product_search_in_branch(text[], uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION product_search_in_branch(text[], uuid, text) TO pharmapoint_app;

-- Migration 0010's one-word search: the app has called product_search since migration 0034, and nothing else
-- (the server, its tests, the benchmarks) calls it.
DROP FUNCTION product_ids_matching(text);
