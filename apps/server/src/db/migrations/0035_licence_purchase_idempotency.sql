-- The licence purchase's STK push honours an Idempotency-Key (decision 0076). The purchase has no pharmacy yet, so
-- the key cannot live in idempotency_keys (a tenant table, keyed in a pharmacy): it lives on the payment it created.
-- The key itself is not kept, only its SHA-256 (idempotency_key_hash), unique per purpose: a retry with the same key
-- finds the payment (a concurrent one waits on the index until the first commits); request_hash is the hash of the
-- first request (a different body under the same key is refused); first_answer is the answer it was given, without
-- the setup token. The setup token of a keyed purchase is HMAC-SHA256(setup_token_seed, key): the row alone (seed
-- and key hash) does not give it, and a replay gives the same token again without the token ever being stored.
ALTER TABLE platform_payments
  ADD COLUMN idempotency_key_hash text CHECK (idempotency_key_hash ~ '^[0-9a-f]{64}$'),
  ADD COLUMN request_hash text CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  ADD COLUMN first_answer jsonb,
  ADD COLUMN setup_token_seed text CHECK (length(setup_token_seed) <= 100);
ALTER TABLE platform_payments
  ADD CONSTRAINT platform_payments_keyed CHECK (
    (idempotency_key_hash IS NULL AND request_hash IS NULL AND first_answer IS NULL AND setup_token_seed IS NULL)
    OR (idempotency_key_hash IS NOT NULL AND request_hash IS NOT NULL AND first_answer IS NOT NULL AND setup_token_seed IS NOT NULL
        AND purpose = 'licence')
  );
CREATE UNIQUE INDEX platform_payments_idempotency ON platform_payments (purpose, idempotency_key_hash) WHERE idempotency_key_hash IS NOT NULL;
