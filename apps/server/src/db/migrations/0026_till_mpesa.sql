-- M-Pesa at the till (issue 11 item 7, decision 0058): a cashier asks the customer's phone for the exact total of a
-- sale by Kopo Kopo K2 STK push, with the pharmacy's own till credentials (settings.integrations.kopokopo). The
-- request keeps the sale as the till sent it (the server priced it) and the cashier's rights at that moment: the
-- signed callback completes the sale in its own transaction, with the M-Pesa receipt as the payment's reference.
--
-- A request moves only forward: pending -> completed | failed | cancelled | unmatched, and failed | cancelled ->
-- unmatched (the customer paid after all). 'unmatched' is money received that completed no sale (the sale was paid
-- another way meanwhile, the request was cancelled, the amount was short, or the sale could no longer be
-- completed): the owner reconciles it (GET /api/till-payments?status=unmatched and the audit log).
CREATE TABLE till_payment_requests (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- The UUID the till made for the sale (POST /api/sales's id): the sale this payment completes.
  sale_id uuid NOT NULL,
  branch_id uuid NOT NULL,
  requested_by uuid NOT NULL REFERENCES users (id),
  -- The cashier's role, permissions and branches when asking (the callback completes the sale as them).
  requester jsonb NOT NULL,
  -- The sale as the till sent it (POST /api/sales's body), completed by the callback.
  sale_input jsonb NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  phone text NOT NULL CHECK (phone ~ '^254[17][0-9]{8}$'),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'cancelled', 'unmatched')),
  attention text CHECK (attention IN ('sale_already_completed', 'paid_after_cancel', 'paid_after_failure', 'amount_mismatch', 'sale_not_completed', 'duplicate_payment')),
  k2_location text CHECK (length(k2_location) <= 500),
  k2_requested_at timestamptz,
  status_queries integer NOT NULL DEFAULT 0,
  mpesa_receipt text CHECK (length(mpesa_receipt) <= 60),
  paid_cents bigint,
  failure_reason text CHECK (length(failure_reason) <= 500),
  completed_sale_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (pharmacy_id, id)
);
-- One request waiting for the customer per sale.
CREATE UNIQUE INDEX till_payment_requests_one_pending ON till_payment_requests (pharmacy_id, sale_id) WHERE status = 'pending';
CREATE INDEX till_payment_requests_sale ON till_payment_requests (pharmacy_id, sale_id);
CREATE INDEX till_payment_requests_unmatched ON till_payment_requests (pharmacy_id, created_at) WHERE status = 'unmatched' OR attention IS NOT NULL;

-- Every verified callback and status answer as received (raw body), before it is acted on.
CREATE TABLE till_payment_events (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id bigint GENERATED ALWAYS AS IDENTITY,
  request_id uuid,
  source text NOT NULL CHECK (source IN ('callback', 'status_query')),
  k2_id text CHECK (length(k2_id) <= 200),
  k2_status text CHECK (length(k2_status) <= 40),
  raw_body text NOT NULL CHECK (length(raw_body) <= 65536),
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id)
);
CREATE INDEX till_payment_events_request ON till_payment_events (pharmacy_id, request_id, received_at);

ALTER TABLE till_payment_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE till_payment_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON till_payment_requests
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE till_payment_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE till_payment_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON till_payment_events
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT, UPDATE ON till_payment_requests TO pharmapoint_app;
GRANT SELECT, INSERT ON till_payment_events TO pharmapoint_app;
