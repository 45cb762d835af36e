import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { JobRunner, type Job } from '../../platform/jobs.ts';
import { runTransaction } from '../../platform/transaction.ts';
import { smsRecipient } from '@pharmapoint/domain/refills';
import { AT_ACCEPTED_CODES, sendSms } from './at.client.ts';
import { claimRefillSms, insertOptOut, markSmsFailed, markSmsSent, optedOutPhones } from './refill-sms.repository.ts';
import { planAutoReminderRun, REFILL_SMS_JOB, REFILL_SMS_PLAN_JOB } from './refill-sms.service.ts';

export interface RefillSmsDeps {
  db: Database;
  config: Config;
}

function payloadOf(job: Job): { pharmacyId: string; smsId: string } {
  const payload = job.payload as { pharmacyId?: unknown; smsId?: unknown } | null;
  if (typeof payload?.pharmacyId !== 'string' || typeof payload.smsId !== 'string') throw new Error('The job payload has no pharmacyId and smsId');
  return { pharmacyId: payload.pharmacyId, smsId: payload.smsId };
}

/**
 * Sends one SMS reminder (job refill_sms_send). The message is claimed once (queued -> sending) in its own
 * transaction, so a repeated job never sends it twice; the number's opt-out is checked again at the claim. The
 * provider's answer is recorded in a second transaction: accepted (statusCode 100-102) keeps the message id; a
 * refusal fails the message with its reason, and 406 (UserInBlacklist) opts the number out of the pharmacy's SMS.
 * A network error or a server error is ambiguous (the provider may have sent it): the message fails with the reason
 * and is never sent again by itself.
 */
export async function runRefillSms(deps: RefillSmsDeps, job: Job): Promise<void> {
  const { pharmacyId, smsId } = payloadOf(job);
  const at = deps.config.africasTalking;
  const claimed = await runTransaction(deps.db, { pharmacyId }, async (q) => {
    const sms = await claimRefillSms(q, pharmacyId, smsId);
    if (!sms) return null;
    if ((await optedOutPhones(q, pharmacyId, [sms.phone])).size > 0) {
      await markSmsFailed(q, pharmacyId, smsId, { reason: 'The number opted out of SMS from this pharmacy.' });
      return null;
    }
    if (!at) {
      await markSmsFailed(q, pharmacyId, smsId, { reason: 'SMS is not set up on this server (AT_USERNAME and AT_API_KEY).' });
      return null;
    }
    return sms;
  });
  if (!claimed || !at) return;
  try {
    const result = await sendSms(at, { to: smsRecipient(claimed.phone), message: claimed.message }, job.signal);
    await runTransaction(deps.db, { pharmacyId }, async (q) => {
      if ((AT_ACCEPTED_CODES as readonly number[]).includes(result.statusCode) && result.messageId) {
        await markSmsSent(q, pharmacyId, smsId, { messageId: result.messageId, statusCode: result.statusCode, cost: result.cost, at: new Date() });
        return;
      }
      await markSmsFailed(q, pharmacyId, smsId, { reason: `${result.status || 'Refused'} (${result.statusCode})`, statusCode: result.statusCode });
      if (result.statusCode === 406) await insertOptOut(q, pharmacyId, claimed.phone, 'blacklisted', new Date());
    });
  } catch (error) {
    await runTransaction(deps.db, { pharmacyId }, (q) => markSmsFailed(q, pharmacyId, smsId, { reason: (error as Error).message }));
  }
}

/** The runner of SMS reminders (every server instance; jobs are claimed with SKIP LOCKED). */
export function createRefillSmsRunner(deps: RefillSmsDeps): JobRunner {
  const runner = new JobRunner({ db: deps.db, leaseMs: 60_000, backoffBaseMs: 5_000, backoffCapMs: 300_000 });
  runner.register(REFILL_SMS_JOB, (job) => runRefillSms(deps, job));
  // The automatic reminder's plan: one job per pharmacy at a time, claimed by one instance (SKIP LOCKED).
  runner.register(REFILL_SMS_PLAN_JOB, async (job) => {
    const { pharmacyId } = job.payload as { pharmacyId: string };
    await runTransaction(deps.db, { pharmacyId }, (q) => planAutoReminderRun(q, pharmacyId, job.id, new Date()));
  });
  return runner;
}
