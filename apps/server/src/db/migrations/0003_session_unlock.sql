-- Failed unlocks of a locked session: after 5 the session is signed out (see modules/auth/auth.service.ts).
ALTER TABLE sessions ADD COLUMN unlock_attempts integer NOT NULL DEFAULT 0;
