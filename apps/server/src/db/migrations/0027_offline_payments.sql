-- Offline platform payments (issue 11 item 8; decision 0060): a customer who paid the licence or a year of hosting
-- outside the M-Pesa prompt (a bank transfer, cash, a cheque, M-Pesa paid straight to the paybill), recorded by the
-- operator in the customers screen. They are rows of platform_payments (migration 0022), so the SaaS dashboard's
-- revenue counts them with the M-Pesa ones: recorded completed at once, with the method, the reference and the day
-- the money was received (paid_on: the month the revenue counts in). The operator who recorded it is requested_by;
-- the pharmacy is for_pharmacy_id. An offline payment has no paying phone and no STK prompt.
ALTER TABLE platform_payments ALTER COLUMN phone DROP NOT NULL;
ALTER TABLE platform_payments
  ADD COLUMN method text NOT NULL DEFAULT 'mpesa_stk'
    CHECK (method IN ('mpesa_stk', 'bank_transfer', 'cash', 'cheque', 'mpesa_paybill')),
  ADD COLUMN reference text CHECK (length(reference) <= 100),
  ADD COLUMN paid_on date,
  ADD COLUMN note text CHECK (length(note) <= 500);
ALTER TABLE platform_payments
  ADD CONSTRAINT platform_payments_stk_phone CHECK (method <> 'mpesa_stk' OR phone IS NOT NULL),
  ADD CONSTRAINT platform_payments_offline CHECK (
    method = 'mpesa_stk'
    OR (status IN ('completed', 'reversed') AND paid_on IS NOT NULL AND for_pharmacy_id IS NOT NULL AND requested_by IS NOT NULL
        AND purpose IN ('upgrade', 'hosting') AND k2_location IS NULL)
  );
