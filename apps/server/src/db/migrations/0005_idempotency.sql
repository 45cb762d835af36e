-- Idempotency keys (issue 6): a create a client may retry stores its key, a hash of the request and the first
-- answer in the same transaction as the change, so a retry gets the first answer and nothing happens twice.
CREATE TABLE idempotency_keys (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  key text NOT NULL CHECK (key ~ '^[A-Za-z0-9_-]{1,100}$'),
  user_id uuid NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE idempotency_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON idempotency_keys
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
GRANT SELECT, INSERT, UPDATE ON idempotency_keys TO pharmapoint_app;
