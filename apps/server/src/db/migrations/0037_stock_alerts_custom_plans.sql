-- The key-by-key statements of refresh_stock_alerts (migration 0036) are planned per connection and the plan kept.
-- A connection that first ran them while the pharmacy's tables were tiny kept the plan that was cheapest then — with
-- no statistics, any index on pharmacy_id looks as good as the primary key on a page or two — and used it at 5,000
-- products too: products_category read with pharmacy_id alone, 5,000 rows filtered, 0.3-1 ms a lookup instead of
-- 0.01 (auto_explain, decision 0075). Only an ANALYZE invalidates such a plan. Planned for each call instead, with
-- the tables' current size, every statement takes the primary key; planning them costs less than one wrong plan.
ALTER FUNCTION refresh_stock_alerts(text[], uuid[], uuid[]) SET plan_cache_mode = force_custom_plan;
