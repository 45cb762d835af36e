-- An expense counts in daily_expenses while it is approved and not voided (decision 0094, amended): a void takes it
-- off, and an edit of its amount, category, branch or date moves it. The summary is rebuilt from the expenses.
CREATE OR REPLACE FUNCTION daily_expenses_of_expenses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'approved' AND OLD.voided_at IS NULL THEN
    UPDATE daily_expenses SET expense_count = expense_count - 1, amount_cents = amount_cents - OLD.total_cents
     WHERE pharmacy_id = OLD.pharmacy_id AND branch_id = OLD.branch_id AND business_day = OLD.expense_date AND category = OLD.category;
  END IF;
  IF NEW.status = 'approved' AND NEW.voided_at IS NULL THEN
    INSERT INTO daily_expenses AS d (pharmacy_id, branch_id, business_day, category, expense_count, amount_cents)
    VALUES (NEW.pharmacy_id, NEW.branch_id, NEW.expense_date, NEW.category, 1, NEW.total_cents)
    ON CONFLICT (pharmacy_id, branch_id, business_day, category) DO UPDATE
      SET expense_count = d.expense_count + 1, amount_cents = d.amount_cents + EXCLUDED.amount_cents;
  END IF;
  RETURN NULL;
END $$;

DELETE FROM daily_expenses;
INSERT INTO daily_expenses (pharmacy_id, branch_id, business_day, category, expense_count, amount_cents)
SELECT pharmacy_id, branch_id, expense_date, category, count(*), sum(total_cents)
  FROM expenses WHERE status = 'approved' AND voided_at IS NULL
 GROUP BY 1, 2, 3, 4;
