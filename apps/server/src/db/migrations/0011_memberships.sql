-- People and memberships (issue 7 item 2, decision 0015). A user (users) is a person, platform-wide; a membership
-- is that person's place in one pharmacy. An invitation is a membership that is not accepted yet: it gives no
-- access (the session loader and the pharmacy switch ignore it) until the invited person accepts it in their own
-- session or through the emailed link. The pharmacy sees only what it typed: the email, the name it gave
-- (invited_name) and the role, whether or not the email already had an account.

-- NULL while the invitation waits for an answer. Rows written without it (the owner's membership, the seed, tests)
-- are accepted at once.
ALTER TABLE memberships ADD COLUMN accepted_at timestamptz DEFAULT now();
-- The name the pharmacy gave the person it invited; shown to the pharmacy while the invitation is pending.
ALTER TABLE memberships ADD COLUMN invited_name text CHECK (invited_name IS NULL OR length(invited_name) BETWEEN 1 AND 120);
-- The invited person said no (the membership is inactive from then on; the pharmacy may invite again).
ALTER TABLE memberships ADD COLUMN declined_at timestamptz;

-- Until now an invitation made an active membership at once. Those whose person never signed in (no password,
-- no Google account) are invitations still waiting; every other membership was in use and stays accepted.
UPDATE memberships m SET accepted_at = NULL, invited_name = u.name
  FROM users u
 WHERE u.id = m.user_id AND u.password_hash IS NULL AND u.google_subject IS NULL AND m.role <> 'demo';

CREATE INDEX memberships_user_pending ON memberships (user_id) WHERE accepted_at IS NULL;

-- An invitation link names the pharmacy it is for (a person may be invited by several).
ALTER TABLE one_time_tokens ADD COLUMN pharmacy_id text REFERENCES pharmacies (id) ON DELETE CASCADE;
UPDATE one_time_tokens t SET pharmacy_id = (
  SELECT m.pharmacy_id FROM memberships m WHERE m.user_id = t.user_id ORDER BY m.created_at DESC LIMIT 1
) WHERE t.purpose = 'invite';
