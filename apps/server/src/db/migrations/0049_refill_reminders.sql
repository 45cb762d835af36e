-- Refill alerts: a refill is marked completed on its sale line (the completion date kept, the line leaves the list).
-- The application role may change only that column of a sale line.
GRANT UPDATE (refill_completed_at) ON sale_items TO pharmapoint_app;
