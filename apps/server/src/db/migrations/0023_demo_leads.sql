-- Demo registrations and leads (seed 002 sections 3 and 4; issue 11 item 5; decision 0046). Platform rows, not
-- tenant rows: a visitor registers before any pharmacy is known, and every visitor of the demo works in the one
-- shared demo pharmacy. The platform operator reads them across the platform (admin area, demos).

-- demo_users of the specification: one per person who registered for the demo.
CREATE TABLE demo_registrations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) <= 254),
  phone text NOT NULL CHECK (length(phone) BETWEEN 10 AND 30),
  pharmacy_name text CHECK (pharmacy_name IS NULL OR length(pharmacy_name) BETWEEN 1 AND 120),
  source text NOT NULL DEFAULT 'website',
  demo_access_granted boolean NOT NULL DEFAULT false,
  email_verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  registered_at timestamptz NOT NULL DEFAULT now(),
  last_access_at timestamptz,
  access_count integer NOT NULL DEFAULT 0 CHECK (access_count >= 0),
  ip text
);
CREATE INDEX demo_registrations_registered ON demo_registrations (registered_at DESC);

-- leads of the specification: the sales side of a demo registration, followed up by the operator.
CREATE TABLE leads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  email text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
  phone text NOT NULL CHECK (length(phone) BETWEEN 10 AND 30),
  pharmacy_name text CHECK (pharmacy_name IS NULL OR length(pharmacy_name) BETWEEN 1 AND 120),
  lead_type text NOT NULL DEFAULT 'demo_interest',
  lead_source text NOT NULL DEFAULT 'website',
  lead_status text NOT NULL DEFAULT 'new' CHECK (lead_status IN ('new', 'contacted', 'qualified', 'converted', 'lost')),
  status text NOT NULL DEFAULT 'demo',
  email_verified boolean NOT NULL DEFAULT false,
  demo_accessed boolean NOT NULL DEFAULT false,
  follow_up_required boolean NOT NULL DEFAULT true,
  notes text CHECK (notes IS NULL OR length(notes) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leads_created ON leads (created_at DESC);

-- Requests to the public demo endpoints, counted per address and per email for their rate limits. Append-only: a
-- window is a range of created_at (old rows simply stop counting).
CREATE TABLE demo_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('register', 'sign_in_link')),
  ip text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX demo_requests_ip ON demo_requests (action, ip, created_at);
CREATE INDEX demo_requests_email ON demo_requests (action, email, created_at);

GRANT SELECT, INSERT, UPDATE ON demo_registrations, leads TO pharmapoint_app;
GRANT SELECT, INSERT ON demo_requests TO pharmapoint_app;
