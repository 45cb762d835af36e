import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKopoKopoConfig, type KopoKopoConfig } from './modules/payments/k2-config.ts';
import { loadAfricasTalkingConfig, type AfricasTalkingConfig } from './modules/refills/at-config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Everything the server reads from its environment, with the zero-configuration defaults of `npm start`. */
export interface Config {
  port: number;
  /** The address to listen on: 127.0.0.1 by default (HOST=0.0.0.0 for every interface). */
  host: string;
  /** A PostgreSQL server; when absent, PGlite in dataDir. */
  databaseUrl?: string;
  /** Optional: the login role request transactions connect as (only a member of pharmapoint_app). */
  appDatabaseUrl?: string;
  dataDir: string;
  /** PGlite waits for the disk at every COMMIT (PGLITE_FSYNC=off to turn it off; decision 0018). */
  embeddedFsync: boolean;
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
  /**
   * Which proxies in front of the server to believe about the client's address (X-Forwarded-For), passed to
   * Fastify's trustProxy: false (the default: the TCP peer is the client), a hop count, or the proxies' addresses.
   */
  trustProxy: TrustProxy;
  /** Kopo Kopo K2 (issue 11): absent without K2_CLIENT_ID, K2_CLIENT_SECRET and K2_API_KEY; npm start then runs the local simulator. */
  kopokopo?: KopoKopoConfig;
  /** Africa's Talking SMS: absent without AT_USERNAME and AT_API_KEY; npm start then runs the local SMS simulator. */
  africasTalking?: AfricasTalkingConfig;
}

/** What Fastify's trustProxy takes: off, the proxies' addresses, or a hop count (a function of the hop). */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/** TRUST_PROXY: unset, '' or 'false' = off; a number = that many hops; else comma-separated addresses or CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    // As Fastify does for a number: the address `hops` steps from the server is the client's.
    return (_address, hop) => hop < hops;
  }
  const addresses = text.split(',').map((a) => a.trim()).filter(Boolean);
  return addresses.length ? addresses : false;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    port,
    // Loopback unless told otherwise: `npm start` on a laptop is not reachable from the network (issue 8 item 11).
    // In production behind a proxy on the same machine keep it; in a container or without a proxy set HOST=0.0.0.0.
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    appDatabaseUrl: env.APP_DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? path.join(ROOT, 'data'),
    embeddedFsync: env.PGLITE_FSYNC !== 'off' && env.PGLITE_FSYNC !== 'false',
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    kopokopo: loadKopoKopoConfig(env, publicUrl),
    africasTalking: loadAfricasTalkingConfig(env),
  };
}
