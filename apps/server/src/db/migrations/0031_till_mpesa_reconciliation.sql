-- Reconciling the till's unmatched M-Pesa money (decision 0068): the owner records that money which completed no
-- sale (migration 0026's 'unmatched') was refunded to the customer (the reversal's or refund's reference and a note)
-- or applied to a sale (the sale is not changed; the link is kept). The request then becomes 'resolved', once:
-- unmatched -> resolved is the only move out of unmatched, and a resolved request never moves again.
ALTER TABLE till_payment_requests DROP CONSTRAINT till_payment_requests_status_check;
ALTER TABLE till_payment_requests ADD CONSTRAINT till_payment_requests_status_check
  CHECK (status IN ('pending', 'completed', 'failed', 'cancelled', 'unmatched', 'resolved'));

ALTER TABLE till_payment_requests
  ADD COLUMN resolution text CHECK (resolution IN ('refunded', 'applied')),
  ADD COLUMN resolution_reference text CHECK (length(resolution_reference) BETWEEN 1 AND 60),
  ADD COLUMN resolution_note text CHECK (length(resolution_note) <= 500),
  ADD COLUMN resolved_sale_id uuid,
  ADD COLUMN resolved_by uuid REFERENCES users (id),
  ADD COLUMN resolved_at timestamptz,
  -- The sale the money was applied to is a sale of the same pharmacy.
  ADD CONSTRAINT till_payment_requests_resolved_sale FOREIGN KEY (pharmacy_id, resolved_sale_id) REFERENCES sales (pharmacy_id, id),
  -- Resolved exactly when a resolution is recorded, with who and when.
  ADD CONSTRAINT till_payment_requests_resolved CHECK (
    (status = 'resolved') = (resolution IS NOT NULL)
    AND (resolution IS NULL OR (resolved_by IS NOT NULL AND resolved_at IS NOT NULL AND resolution_note IS NOT NULL))
  ),
  -- Refunded: a reference and no sale; applied: a sale.
  ADD CONSTRAINT till_payment_requests_resolution_kind CHECK (
    resolution IS NULL
    OR (resolution = 'refunded' AND resolution_reference IS NOT NULL AND resolved_sale_id IS NULL)
    OR (resolution = 'applied' AND resolved_sale_id IS NOT NULL)
  );

-- The owner's list: newest first per pharmacy (filters by status, branch and day on top).
CREATE INDEX till_payment_requests_created ON till_payment_requests (pharmacy_id, created_at DESC);
