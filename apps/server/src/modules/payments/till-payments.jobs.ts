import type { Queryable } from '../../db/database.ts';
import { runTransaction } from '../../platform/transaction.ts';
import { JobRunner, type Job } from '../../platform/jobs.ts';
import { AppError } from '../../platform/errors.ts';
import type { K2Result } from './k2.client.ts';
import { K2Error, queryIncomingPayment, readK2Result, requestIncomingPayment } from './k2.client.ts';
import {
  claimTillPush,
  countTillStatusQuery,
  findTillPayment,
  moveTillPayment,
  releaseTillPush,
  setTillLocation,
} from './till-payments.repository.ts';
import {
  applyTillResult,
  queueTillStatusQuery,
  RECONCILE,
  type TillOutcome,
  TILL_STATUS_QUERY_JOB,
  TILL_STK_PUSH_JOB,
  tillK2,
  type TillDeps,
} from './till-payments.service.ts';

function payloadOf(job: Job): { pharmacyId: string; requestId: string } {
  const payload = job.payload as { pharmacyId?: unknown; requestId?: unknown } | null;
  if (typeof payload?.pharmacyId !== 'string' || typeof payload.requestId !== 'string') throw new Error('The job payload has no pharmacyId and requestId');
  return { pharmacyId: payload.pharmacyId, requestId: payload.requestId };
}

/** Opens one transaction in the pharmacy for a piece of the flow (the callback route's app.inPlatform, or the job's). */
export type TillTransaction = <T>(work: (q: Queryable) => Promise<T>) => Promise<T>;

/**
 * Records what K2 said about a till payment, at the edge (the callback route and the status query job): the result is
 * applied in one transaction that may complete the sale; when the sale cannot be completed (that transaction rolled
 * back as a whole), a second transaction, opened after it, keeps the money as unmatched with the reason, so the
 * receipt is never lost. The use case (applyTillResult) stays transaction-free.
 */
export async function recordTillResult(
  inTransaction: TillTransaction,
  pharmacyId: string,
  result: K2Result,
  raw: { body: string; source: 'callback' | 'status_query'; requestId?: string },
  now = new Date(),
): Promise<TillOutcome> {
  try {
    return await inTransaction((q) => applyTillResult(q, pharmacyId, result, raw, { allowed: true }, now));
  } catch (error) {
    if (result.status !== 'Success') throw error;
    const reason = error instanceof AppError ? error.message : 'The sale could not be completed.';
    return inTransaction((q) => applyTillResult(q, pharmacyId, result, raw, { allowed: false, failure: reason.slice(0, 500) }, now));
  }
}

/**
 * The till's STK push (job k2_till_stk_push), with the pharmacy's own K2 credentials read when it runs: claimed once
 * per request, so a repeated job never prompts the phone twice. K2's refusal fails the request with its reason; a
 * network or server error gives the claim back and the runner tries again with back-off. Once K2 answers with the
 * Location, the first status query is queued (it finds a result whose callback never came).
 */
export async function runTillStkPush(deps: TillDeps, job: Job): Promise<void> {
  const { pharmacyId, requestId } = payloadOf(job);
  const claimed = await runTransaction(deps.db, { pharmacyId }, async (q) => {
    const row = await findTillPayment(q, pharmacyId, requestId, { forUpdate: true });
    if (!row || row.status !== 'pending' || !(await claimTillPush(q, pharmacyId, requestId, new Date()))) return null;
    return { row, k2: (await tillK2(q, deps.config, pharmacyId)).k2 };
  });
  if (!claimed) return;
  const { row, k2 } = claimed;
  if (!k2) {
    await runTransaction(deps.db, { pharmacyId }, (q) =>
      moveTillPayment(q, pharmacyId, requestId, 'pending', 'failed', { at: new Date(), failureReason: 'M-Pesa at the till is not set up for this pharmacy.' }),
    );
    return;
  }
  try {
    const location = await requestIncomingPayment(k2, {
      phoneNumber: `+${row.phone}`,
      firstName: 'Customer',
      lastName: '-',
      amountShillings: row.amountCents / 100,
      metadata: { till_request_id: row.id, sale_id: row.saleId, reference: 'till' },
    });
    await runTransaction(deps.db, { pharmacyId }, async (q) => {
      await setTillLocation(q, pharmacyId, requestId, location, new Date());
      await queueTillStatusQuery(q, pharmacyId, requestId, RECONCILE.firstMs);
    });
  } catch (error) {
    if (error instanceof K2Error && error.permanent) {
      await runTransaction(deps.db, { pharmacyId }, (q) =>
        moveTillPayment(q, pharmacyId, requestId, 'pending', 'failed', { at: new Date(), failureReason: error.message }),
      );
      return;
    }
    await runTransaction(deps.db, { pharmacyId }, (q) => releaseTillPush(q, pharmacyId, requestId));
    throw error;
  }
}

/**
 * The till's status query (job k2_till_status_query): GET on the request's location with the pharmacy's
 * credentials, applied like a callback. While the customer has not answered it queues itself again, RECONCILE.max
 * times at most. A request the cashier cancelled is still asked about: money paid after all is kept as unmatched.
 */
export async function runTillStatusQuery(deps: TillDeps, job: Job): Promise<void> {
  const { pharmacyId, requestId } = payloadOf(job);
  const found = await runTransaction(deps.db, { pharmacyId }, async (q) => {
    const row = await findTillPayment(q, pharmacyId, requestId);
    if (!row || !row.k2Location || (row.status !== 'pending' && row.status !== 'cancelled')) return null;
    return { row, k2: (await tillK2(q, deps.config, pharmacyId)).k2 };
  });
  if (!found?.k2 || !found.row.k2Location) return;
  const { row, k2 } = found;
  const body = await queryIncomingPayment(k2, row.k2Location!);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error('K2 answered the status query with something that is not JSON');
  }
  const outcome = await recordTillResult((work) => runTransaction(deps.db, { pharmacyId }, work), pharmacyId, readK2Result(parsed), {
    body,
    source: 'status_query',
    requestId: row.id,
  });
  if (outcome.status === 'pending' || (outcome.status === 'cancelled' && readK2Result(parsed).status === 'Pending')) {
    await runTransaction(deps.db, { pharmacyId }, async (q) => {
      await countTillStatusQuery(q, pharmacyId, row.id);
      if (row.statusQueries + 1 < RECONCILE.max) await queueTillStatusQuery(q, pharmacyId, row.id, RECONCILE.everyMs);
    });
  }
}

/** The runner of the till's payment jobs (every server, whatever the platform's own K2 configuration). */
export function createTillPaymentsRunner(deps: TillDeps): JobRunner {
  const runner = new JobRunner({ db: deps.db, leaseMs: 60_000, backoffBaseMs: 5_000, backoffCapMs: 300_000 });
  runner.register(TILL_STK_PUSH_JOB, (job) => runTillStkPush(deps, job));
  runner.register(TILL_STATUS_QUERY_JOB, (job) => runTillStatusQuery(deps, job));
  return runner;
}
