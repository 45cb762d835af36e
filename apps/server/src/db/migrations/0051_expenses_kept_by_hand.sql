-- Expenses kept in the back office (decision 0095): an expense recorded by hand (source manual) or at the till can be
-- edited and voided by those who keep the expense report. A voided expense stays, marked with when, by whom and why,
-- and counts in no total; who changed it last is kept beside updated_at. No existing column changes its meaning.
ALTER TABLE expenses
  ADD COLUMN updated_by uuid REFERENCES users (id),
  ADD COLUMN voided_at timestamptz,
  ADD COLUMN voided_by uuid REFERENCES users (id),
  ADD COLUMN voided_by_name text CHECK (voided_by_name IS NULL OR length(voided_by_name) BETWEEN 1 AND 200),
  ADD COLUMN void_reason text CHECK (void_reason IS NULL OR length(void_reason) BETWEEN 1 AND 200),
  ADD CONSTRAINT expenses_void_complete CHECK ((voided_at IS NULL) = (void_reason IS NULL));
