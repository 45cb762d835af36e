-- Platform payments by M-Pesa STK push through Kopo Kopo K2 (issue 11; decisions 0043-0045): the licence bought
-- on /purchase (and later hosting and upgrades paid from /app/subscription). Platform-level rows (a licence payment
-- exists before its pharmacy): no pharmacy_id column and no tenant policy; the pharmacy a payment created or paid
-- for is named by provisioned_pharmacy_id / for_pharmacy_id.
--
-- A payment moves only forward: pending -> completed | failed | reversed, and completed -> reversed.
CREATE TABLE platform_payments (
  id uuid PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('licence', 'hosting', 'upgrade')),
  plan text NOT NULL CHECK (length(plan) <= 40),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  phone text NOT NULL CHECK (phone ~ '^254[17][0-9]{8}$'),
  owner_email text NOT NULL CHECK (owner_email = lower(owner_email) AND length(owner_email) <= 254),
  owner_name text NOT NULL CHECK (length(owner_name) BETWEEN 1 AND 120),
  pharmacy_name text NOT NULL CHECK (length(pharmacy_name) BETWEEN 1 AND 120),
  -- The rest of the registration form (owner phone, location, county, licence number).
  registration jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_ip text CHECK (length(client_ip) <= 100),
  -- The hash of the secret the paying browser holds to set the owner's password (licence payments).
  setup_token_hash text,
  for_pharmacy_id text REFERENCES pharmacies (id),
  requested_by uuid REFERENCES users (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'reversed')),
  -- K2's resource URL of the incoming payment (the Location header): the handle for status queries.
  k2_location text,
  k2_requested_at timestamptz,
  status_queries integer NOT NULL DEFAULT 0,
  mpesa_receipt text CHECK (length(mpesa_receipt) <= 60),
  failure_reason text CHECK (length(failure_reason) <= 500),
  provisioned_pharmacy_id text UNIQUE REFERENCES pharmacies (id),
  owner_user_id uuid REFERENCES users (id),
  subdomain text,
  -- Something an operator must look at: a second payment for a registered email, a reversal after provisioning.
  attention text CHECK (attention IN ('duplicate_registration', 'reversed_after_provisioning', 'amount_mismatch', 'paid_after_failure', 'duplicate_payment')),
  confirmation_email_queued boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX platform_payments_ip ON platform_payments (client_ip, created_at);
CREATE INDEX platform_payments_phone ON platform_payments (phone, created_at);
CREATE INDEX platform_payments_email ON platform_payments (owner_email, created_at);
CREATE INDEX platform_payments_receipt ON platform_payments (mpesa_receipt) WHERE mpesa_receipt IS NOT NULL;
CREATE INDEX platform_payments_pending ON platform_payments (created_at) WHERE status = 'pending';

-- Every signed callback and status answer as received (raw body), before it is acted on.
CREATE TABLE platform_payment_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  payment_id uuid REFERENCES platform_payments (id),
  source text NOT NULL CHECK (source IN ('callback', 'status_query', 'reversal')),
  k2_id text CHECK (length(k2_id) <= 200),
  k2_status text CHECK (length(k2_status) <= 40),
  raw_body text NOT NULL CHECK (length(raw_body) <= 65536),
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX platform_payment_events_payment ON platform_payment_events (payment_id, received_at);

GRANT SELECT, INSERT, UPDATE ON platform_payments TO pharmapoint_app;
GRANT SELECT, INSERT ON platform_payment_events TO pharmapoint_app;
