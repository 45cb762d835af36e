-- Refill alerts: a refill is marked completed on its sale line (the completion date kept, the line leaves the list).
-- The application role may change only that column of a sale line.
GRANT UPDATE (refill_completed_at) ON sale_items TO pharmapoint_app;

-- SMS refill reminders: one row per message, queued in the request's transaction and sent by the job runner through
-- Africa's Talking; the provider's message id and the delivery report's status are kept on it.
CREATE TABLE refill_sms (
  pharmacy_id text NOT NULL,
  id uuid NOT NULL,
  sale_id uuid NOT NULL,
  line integer NOT NULL,
  client_id uuid NOT NULL,
  -- 254 then 9 digits; sent as +254…
  phone text NOT NULL CHECK (phone ~ '^254[17][0-9]{8}$'),
  message text NOT NULL CHECK (length(message) BETWEEN 1 AND 480),
  trigger text NOT NULL CHECK (trigger IN ('manual', 'auto')),
  -- queued -> sending (claimed by a job) -> sent (the provider accepted it) | failed (refused, or not sent)
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  -- The delivery report's status (Sent, Submitted, Buffered, Rejected, Success, Failed, ...), once one came.
  delivery_status text CHECK (delivery_status IS NULL OR length(delivery_status) <= 40),
  provider_message_id text CHECK (provider_message_id IS NULL OR length(provider_message_id) <= 100),
  provider_status_code integer,
  failure_reason text CHECK (failure_reason IS NULL OR length(failure_reason) <= 300),
  cost text CHECK (cost IS NULL OR length(cost) <= 40),
  -- The pharmacy's business day it was queued on (one automatic message per client per day).
  reminder_day date NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  delivered_at timestamptz,
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, sale_id, line) REFERENCES sale_items (pharmacy_id, sale_id, line),
  FOREIGN KEY (pharmacy_id, client_id) REFERENCES contacts (pharmacy_id, id)
);
CREATE UNIQUE INDEX refill_sms_provider_id ON refill_sms (provider_message_id) WHERE provider_message_id IS NOT NULL;
CREATE INDEX refill_sms_line ON refill_sms (pharmacy_id, sale_id, line, created_at DESC);
CREATE INDEX refill_sms_phone ON refill_sms (phone);
-- The automatic reminder goes once per refill, and at most once per client and day.
CREATE UNIQUE INDEX refill_sms_auto_once ON refill_sms (pharmacy_id, sale_id, line) WHERE trigger = 'auto';
CREATE UNIQUE INDEX refill_sms_auto_daily ON refill_sms (pharmacy_id, client_id, reminder_day) WHERE trigger = 'auto';

-- A client's consent to refill reminders, kept apart from any marketing consent: given or withdrawn, when, by whom
-- and where (the till, the contact page, the refill alerts). The audit log keeps each change.
CREATE TABLE reminder_consents (
  pharmacy_id text NOT NULL,
  contact_id uuid NOT NULL,
  consent boolean NOT NULL,
  source text NOT NULL CHECK (source IN ('till', 'contact', 'refill_alerts')),
  changed_by uuid,
  changed_at timestamptz NOT NULL,
  PRIMARY KEY (pharmacy_id, contact_id),
  FOREIGN KEY (pharmacy_id, contact_id) REFERENCES contacts (pharmacy_id, id)
);

-- Numbers that asked the SMS provider to stop (AT's opt-out callback, or a send refused as blacklisted): no SMS goes
-- to them from this pharmacy, whichever client carries the number.
CREATE TABLE sms_opt_outs (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  phone text NOT NULL CHECK (phone ~ '^254[0-9]{9}$'),
  source text NOT NULL CHECK (source IN ('provider_opt_out', 'blacklisted')),
  opted_out_at timestamptz NOT NULL,
  PRIMARY KEY (pharmacy_id, phone)
);

ALTER TABLE refill_sms ENABLE ROW LEVEL SECURITY;
ALTER TABLE refill_sms FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON refill_sms USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE reminder_consents ENABLE ROW LEVEL SECURITY;
ALTER TABLE reminder_consents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON reminder_consents USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sms_opt_outs ENABLE ROW LEVEL SECURITY;
ALTER TABLE sms_opt_outs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sms_opt_outs USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT ON refill_sms, reminder_consents, sms_opt_outs TO pharmapoint_app;
GRANT UPDATE ON refill_sms, reminder_consents TO pharmapoint_app;

-- The provider's callbacks name a message id or a phone, not a pharmacy: these answer which pharmacy (ids only), so
-- the callback's work then runs in that pharmacy under its policy.
CREATE FUNCTION refill_sms_pharmacy(p_message_id text) RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT pharmacy_id FROM refill_sms WHERE provider_message_id = p_message_id $$;
REVOKE ALL ON FUNCTION refill_sms_pharmacy(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION refill_sms_pharmacy(text) TO pharmapoint_app;

CREATE FUNCTION refill_sms_pharmacies_of(p_phone text) RETURNS SETOF text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT DISTINCT pharmacy_id FROM refill_sms WHERE phone = p_phone $$;
REVOKE ALL ON FUNCTION refill_sms_pharmacies_of(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION refill_sms_pharmacies_of(text) TO pharmapoint_app;

-- The automatic SMS reminder, opt-in per pharmacy: N days before the refill is due, never in quiet hours (the
-- pharmacy's time zone). A planning job (refill_sms_plan) runs it through the job runner; only the job named in
-- plan_job_id continues the chain, so turning it on twice never starts two.
CREATE TABLE refill_reminder_settings (
  pharmacy_id text PRIMARY KEY REFERENCES pharmacies (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  days_before integer NOT NULL DEFAULT 3 CHECK (days_before BETWEEN 0 AND 30),
  quiet_start text NOT NULL DEFAULT '20:00' CHECK (quiet_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  quiet_end text NOT NULL DEFAULT '08:00' CHECK (quiet_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  plan_job_id uuid,
  updated_by uuid,
  updated_at timestamptz NOT NULL
);
ALTER TABLE refill_reminder_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE refill_reminder_settings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON refill_reminder_settings USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
GRANT SELECT, INSERT, UPDATE ON refill_reminder_settings TO pharmapoint_app;
