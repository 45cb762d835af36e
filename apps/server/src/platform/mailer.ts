import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Email through the outbox: enqueue() writes the message in the caller's transaction, so it is sent only if
 * the cause commits and is never lost if SMTP is down. The worker delivers over SMTP (SMTP_URL) with retries;
 * without SMTP the messages stay in the outbox and the dev mailbox page shows them.
 */
export interface Mailer {
  readonly smtpConfigured: boolean;
  enqueue(q: Queryable, message: EmailMessage, pharmacyId?: string | null): Promise<void>;
  /** Sends what is due now (called after commits and by the worker's timer). */
  flush(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

interface OutboxRow {
  id: string;
  payload: EmailMessage;
  attempts: number;
}

const MAX_ATTEMPTS = 8;

export function createMailer({ db, config }: { db: Database; config: Config }): Mailer {
  const transport: Transporter | null = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<number> | null = null;

  async function sendDue(): Promise<number> {
    if (!transport) return 0;
    const due = await db.owner.query<OutboxRow>(
      `SELECT id, payload, attempts FROM outbox
        WHERE kind = 'email' AND sent_at IS NULL AND next_attempt_at <= now() AND attempts < $1
        ORDER BY created_at LIMIT 20`,
      [MAX_ATTEMPTS],
    );
    let sent = 0;
    for (const row of due) {
      try {
        await transport.sendMail({ from: config.mailFrom, ...row.payload });
        await db.owner.query(`UPDATE outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`, [row.id]);
        sent += 1;
      } catch (error) {
        // Exponential back-off: 2, 4, 8 ... seconds.
        await db.owner.query(
          `UPDATE outbox SET attempts = attempts + 1, last_error = $2,
                  next_attempt_at = now() + make_interval(secs => power(2, attempts + 1))
            WHERE id = $1`,
          [row.id, (error as Error).message.slice(0, 500)],
        );
      }
    }
    return sent;
  }

  const mailer: Mailer = {
    smtpConfigured: transport !== null,
    async enqueue(q, message, pharmacyId = null) {
      await q.query(`INSERT INTO outbox (pharmacy_id, kind, payload) VALUES ($1, 'email', $2)`, [pharmacyId, JSON.stringify(message)]);
    },
    async flush() {
      // One flush at a time; a caller arriving meanwhile waits for it and then sends what is still due.
      while (flushing) await flushing;
      flushing = sendDue().finally(() => {
        flushing = null;
      });
      return flushing;
    },
    start(intervalMs = 2000) {
      if (timer || !transport) return;
      timer = setInterval(() => void mailer.flush().catch(() => undefined), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (flushing) await flushing.catch(() => undefined);
      transport?.close();
    },
  };
  return mailer;
}
