import type { App, AppDeps } from '../../platform/module.ts';

interface OutboxEmail {
  id: string;
  created_at: Date;
  payload: { to: string; subject: string; text: string; html?: string };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text with its links made clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * The dev mailbox: with no SMTP server configured, email stays in the outbox and this page lists it (newest
 * first), so sign-up, invitations and password resets work on a laptop with `npm start`. Absent when SMTP_URL is
 * set, and in production unless DEV_MAILBOX=true.
 */
export function registerDevMailbox(app: App, { db, config, mailer }: AppDeps): void {
  if (mailer.smtpConfigured || !config.devMailbox) return;
  app.get('/dev/mailbox', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const rows = await db.owner.query<OutboxEmail>(
      `SELECT id, created_at, payload FROM jobs WHERE kind = 'email' ORDER BY created_at DESC LIMIT 200`,
    );
    const items = rows
      .map(
        (row) => `<article class="mail">
  <h2>${escapeHtml(row.payload.subject)}</h2>
  <p class="meta">To: <strong>${escapeHtml(row.payload.to)}</strong> · ${new Date(row.created_at).toISOString()}</p>
  <pre>${linkify(row.payload.text)}</pre>
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
<body><h1>Dev mailbox</h1><p>Email that would have been sent (no SMTP server is configured). Newest first.</p>
${items || '<p>No email yet.</p>'}
</body></html>`);
  });
}
