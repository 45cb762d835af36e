import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { enqueueJob, JobRunner } from './jobs.ts';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Email as background jobs of kind 'email' (platform/jobs.ts): enqueue() writes the job in the caller's
 * transaction, so it is sent only if the cause commits and is never lost if SMTP is down. The job runner
 * delivers over SMTP (SMTP_URL) with exponential back-off, on any number of server instances without sending
 * twice; after 8 failed attempts the job is dead and shows on the operator's dashboard. Without SMTP no
 * handler is registered: the jobs stay pending and the dev mailbox page shows them.
 */
export interface Mailer {
  readonly smtpConfigured: boolean;
  enqueue(q: Queryable, message: EmailMessage, pharmacyId?: string | null): Promise<void>;
  /** Sends what is due now (called after commits and by the worker's timer). */
  flush(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export const EMAIL_JOB_KIND = 'email';
const EMAIL_MAX_ATTEMPTS = 8;

function asEmail(payload: unknown): EmailMessage {
  const p = payload as Partial<EmailMessage> | null;
  if (!p || typeof p.to !== 'string' || typeof p.subject !== 'string' || typeof p.text !== 'string') {
    throw new Error('The job payload is not an email (to, subject and text are required).');
  }
  return { to: p.to, subject: p.subject, text: p.text, ...(typeof p.html === 'string' ? { html: p.html } : {}) };
}

/**
 * The mailer. It registers the 'email' handler on the given job runner (the one the server runs for every
 * kind), or on a runner of its own that it starts and stops.
 */
export function createMailer({ db, config, runner }: { db: Database; config: Config; runner?: JobRunner }): Mailer {
  const transport: Transporter | null = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  const jobs = runner ?? new JobRunner({ db });
  const ownsRunner = !runner;
  if (transport) {
    jobs.register(EMAIL_JOB_KIND, async (job) => {
      await transport.sendMail({ from: config.mailFrom, ...asEmail(job.payload) });
    });
  }

  return {
    smtpConfigured: transport !== null,
    async enqueue(q, message, pharmacyId = null) {
      await enqueueJob(q, { kind: EMAIL_JOB_KIND, payload: message, pharmacyId, maxAttempts: EMAIL_MAX_ATTEMPTS });
    },
    async flush() {
      return transport ? jobs.runDue() : 0;
    },
    start(intervalMs = 2000) {
      if (ownsRunner && transport) jobs.start(intervalMs);
    },
    async stop() {
      if (ownsRunner) await jobs.stop();
      transport?.close();
    },
  };
}
