import { runTransaction } from '../../platform/transaction.ts';
import { JobRunner, type Job } from '../../platform/jobs.ts';
import { K2Error, queryIncomingPayment, readK2Result, requestIncomingPayment } from './k2.client.ts';
import { countStatusQuery, findPayment, releaseStkPush, setLocation } from './payments.repository.ts';
import {
  applyK2Result,
  claimPush,
  failPayment,
  queueStatusQuery,
  RECONCILE,
  STATUS_QUERY_JOB,
  STK_PUSH_JOB,
  type PaymentDeps,
} from './payments.service.ts';

function paymentIdOf(job: Job): string {
  const id = (job.payload as { paymentId?: unknown } | null)?.paymentId;
  if (typeof id !== 'string') throw new Error('The job payload has no paymentId');
  return id;
}

/**
 * The STK push (job k2_stk_push): claimed once per payment, so a repeated job never prompts the phone twice.
 * A refusal by K2 fails the payment with its reason; a network or server error gives the claim back and the job
 * runner tries again with back-off. Once K2 answers with the Location, the first status query is queued.
 */
export async function runStkPush(deps: PaymentDeps, job: Job): Promise<void> {
  const k2 = deps.config.kopokopo;
  if (!k2) throw new Error('Kopo Kopo is not configured');
  const paymentId = paymentIdOf(job);
  // The job opens its transactions one after the other, the call to K2 between them (never inside one).
  const payment = await runTransaction(deps.db, {}, (q) => claimPush(q, paymentId));
  if (!payment) return;
  const [firstName, ...rest] = payment.ownerName.split(/\s+/);
  try {
    const location = await requestIncomingPayment(k2, {
      phoneNumber: `+${payment.phone}`,
      firstName: firstName ?? payment.ownerName,
      lastName: rest.join(' ') || '-',
      email: payment.ownerEmail,
      amountShillings: payment.amountCents / 100,
      metadata: { payment_id: payment.id, reference: payment.purpose },
    });
    await runTransaction(deps.db, {}, async (q) => {
      await setLocation(q, payment.id, location, new Date());
      await queueStatusQuery(q, payment.id, RECONCILE.firstMs);
    });
  } catch (error) {
    if (error instanceof K2Error && error.permanent) {
      await runTransaction(deps.db, {}, (q) => failPayment(q, payment.id, error.message));
      return;
    }
    await runTransaction(deps.db, {}, (q) => releaseStkPush(q, payment.id));
    throw error;
  }
}

/**
 * The status query (job k2_status_query): GET on the payment's location, applied like a callback. While the
 * customer has not answered it queues itself again, RECONCILE.max times at most.
 */
export async function runStatusQuery(deps: PaymentDeps, job: Job): Promise<void> {
  const k2 = deps.config.kopokopo;
  if (!k2) throw new Error('Kopo Kopo is not configured');
  const paymentId = paymentIdOf(job);
  const payment = await runTransaction(deps.db, {}, (q) => findPayment(q, paymentId));
  if (!payment || payment.status !== 'pending' || !payment.k2Location) return;
  const body = await queryIncomingPayment(k2, payment.k2Location);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error('K2 answered the status query with something that is not JSON');
  }
  const result = readK2Result(parsed);
  // Our own query: the answer names the payment by its location, whatever its metadata says.
  const outcome = await runTransaction(deps.db, {}, (q) => applyK2Result(q, deps, { ...result, paymentId: payment.id }, { body, source: 'status_query' }));
  if (outcome.status === 'pending') {
    await runTransaction(deps.db, {}, async (q) => {
      await countStatusQuery(q, payment.id);
      if (payment.statusQueries + 1 < RECONCILE.max) await queueStatusQuery(q, payment.id, RECONCILE.everyMs);
    });
  }
}

/** The runner of the payments jobs (started with the server when K2 is configured). */
export function createPaymentsRunner(deps: PaymentDeps): JobRunner {
  const runner = new JobRunner({ db: deps.db, leaseMs: 60_000, backoffBaseMs: 5_000, backoffCapMs: 300_000 });
  runner.register(STK_PUSH_JOB, (job) => runStkPush(deps, job));
  runner.register(STATUS_QUERY_JOB, (job) => runStatusQuery(deps, job));
  return runner;
}
