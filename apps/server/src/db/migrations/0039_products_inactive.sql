-- The inactive products of a pharmacy, for the product list's low / out of stock filter (decision 0075): active
-- products come from stock_alerts, which has none of the inactive ones, so those are read apart — usually a handful,
-- found by this index instead of a scan of the pharmacy's products.
CREATE INDEX products_inactive ON products (pharmacy_id, id) WHERE NOT is_active;
