-- The dashboard's getting-started checklist (decision 0097): a pharmacy's owner or admin may dismiss it for good.
-- One row per pharmacy that dismissed it (who and when); no row = not dismissed. The steps themselves are read
-- from the pharmacy's data, never stored.

CREATE TABLE getting_started_dismissals (
  pharmacy_id text PRIMARY KEY REFERENCES pharmacies (id) ON DELETE CASCADE,
  dismissed_at timestamptz NOT NULL DEFAULT now(),
  dismissed_by uuid REFERENCES users (id)
);

ALTER TABLE getting_started_dismissals ENABLE ROW LEVEL SECURITY;
ALTER TABLE getting_started_dismissals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON getting_started_dismissals
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT ON getting_started_dismissals TO pharmapoint_app;
