-- Who changed a lead's follow-up, and to what (issue 7; decision 0055). Leads are platform rows (migration 0023), so
-- their changes are not in a pharmacy's audit log: each operator change of a lead's status, follow-up flag or notes
-- appends one row here, in the transaction of the change. Append-only for the application role.
CREATE TABLE lead_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  lead_id uuid NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  changed_by uuid NOT NULL REFERENCES users (id),
  changed_at timestamptz NOT NULL DEFAULT now(),
  lead_status text NOT NULL,
  follow_up_required boolean NOT NULL,
  notes text CHECK (notes IS NULL OR length(notes) <= 2000),
  before jsonb NOT NULL
);
CREATE INDEX lead_changes_lead ON lead_changes (lead_id, changed_at);
GRANT SELECT, INSERT ON lead_changes TO pharmapoint_app;
