import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Everything the server reads from its environment, with the zero-configuration defaults of `npm start`. */
export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server; when absent, PGlite in dataDir. */
  databaseUrl?: string;
  /** Optional: the login role request transactions connect as (only a member of pharmapoint_app). */
  appDatabaseUrl?: string;
  dataDir: string;
  /** Public origin used in emailed links. */
  publicUrl: string;
  /** SMTP server for real email; when absent, email stays in the outbox and shows at /dev/mailbox. */
  smtpUrl?: string;
  mailFrom: string;
  googleClientId?: string;
  googleClientSecret?: string;
  /** The OpenID Connect issuer for Google sign-in (a local fake in tests). */
  googleIssuer: string;
  /** Show the outbox at /dev/mailbox when no SMTP server is configured (off in production unless DEV_MAILBOX=true). */
  devMailbox: boolean;
  /** Minutes of inactivity before the session locks. */
  sessionLockMinutes: number;
  /** Minutes the locked screen counts down before signing out. */
  autoLogoutMinutes: number;
  sessionDays: number;
  /** Secure cookies (behind HTTPS). */
  secureCookies: boolean;
  /** Directory of the built web app, served at /. */
  webDist: string;
  /** Seed demo data on first start. */
  seed: boolean;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    appDatabaseUrl: env.APP_DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? path.join(ROOT, 'data'),
    publicUrl,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'PharmaPoint <no-reply@pharmapoint.local>',
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleClientSecret: env.GOOGLE_CLIENT_SECRET || undefined,
    googleIssuer: env.GOOGLE_ISSUER ?? 'https://accounts.google.com',
    devMailbox: env.DEV_MAILBOX ? env.DEV_MAILBOX === 'true' : env.NODE_ENV !== 'production',
    sessionLockMinutes: Number(env.SESSION_LOCK_MINUTES ?? 15),
    autoLogoutMinutes: Number(env.AUTO_LOGOUT_MINUTES ?? 5),
    sessionDays: Number(env.SESSION_DAYS ?? 14),
    secureCookies: env.SECURE_COOKIES ? env.SECURE_COOKIES === 'true' : publicUrl.startsWith('https://'),
    webDist: env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist'),
    seed: env.SEED !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
