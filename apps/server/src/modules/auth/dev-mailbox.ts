import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { SESSION_COOKIE, loadSession } from '../../platform/auth-plugin.ts';
import { AppError } from '../../platform/errors.ts';
import type { App, AppDeps } from '../../platform/module.ts';
import { newestEmails } from './auth.repository.ts';

/** Is the mailbox on: no SMTP server, and not production unless DEV_MAILBOX=true. */
export function devMailboxEnabled({ config, mailer }: Pick<AppDeps, 'config' | 'mailer'>): boolean {
  return !mailer.smtpConfigured && config.devMailbox;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Who may read the mailbox: a request from the machine itself (the TCP peer is a loopback address, and no proxy
 * is trusted: behind a proxy on the same machine every request would look local), or a signed-in platform
 * operator. The mailbox shows password-reset and invitation links of every pharmacy: anyone else must not learn
 * it exists.
 */
async function mayRead(request: FastifyRequest, db: Database, config: Config): Promise<boolean> {
  if (config.trustProxy === false && isLoopback(request.socket.remoteAddress)) return true;
  const token = request.cookies[SESSION_COOKIE];
  const auth = token ? await loadSession(db, token, config) : null;
  return Boolean(auth?.isPlatformOperator && !auth.locked);
}

/** '&' as &amp; (what readers of the page, the browser tests among them, decode), the others as numeric references. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/[<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text with its links made clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * The dev mailbox: with no SMTP server configured, email stays in the jobs table and this page lists it (newest
 * first), so sign-up, invitations and password resets work on a laptop with `npm start`: open it on the machine
 * that runs the server. Absent when SMTP_URL is set, and in production unless DEV_MAILBOX=true; 404 for everyone
 * but the machine itself and the platform operator (decision 0013).
 */
export function registerDevMailbox(app: App, deps: AppDeps): void {
  const { db, config } = deps;
  if (!devMailboxEnabled(deps)) return;
  app.get('/dev/mailbox', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!(await mayRead(request, db, config))) throw new AppError('NOT_FOUND');
    const emails = await newestEmails(db.owner, 200);
    const items = emails
      .map(
        (email) => `<article class="mail">
  <h2>${escapeHtml(email.subject)}</h2>
  <p class="meta">To: <strong>${escapeHtml(email.to)}</strong> · ${escapeHtml(email.createdAt)}</p>
  <pre>${linkify(email.text)}</pre>
</article>`,
      )
      .join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev mailbox · PharmaPoint</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#0f172a}
.mail{border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem;margin:1rem 0}.meta{color:#475569}
pre{white-space:pre-wrap;font-family:inherit}a{color:#2563eb}</style></head>
<body><h1>Dev mailbox</h1><p>Email that would have been sent (no SMTP server is configured). Newest first. Readable only from this machine and by the platform operator.</p>
${items || '<p>No email yet.</p>'}
</body></html>`);
  });
}
