import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { normalizeMpesaPhone } from '@pharmapoint/domain/phone';
import {
  canMovePayment,
  LICENCE_PLAN,
  maskPhone,
  PLATFORM_PRICES,
  subdomainSlug,
  type CreateOwnerRequest,
  type CreateOwnerResponse,
  type KopokopoHealth,
  type PaymentStatus,
  type PaymentStatusResponse,
  type StkPushRequest,
  type StkPushResponse,
  subscriptionPaymentCents,
  type SubscriptionPayment,
  type SubscriptionPaymentRequest,
} from '@pharmapoint/domain/platform-payments';
import type { RequestContext } from '../../platform/context.ts';
import { applySubscriptionPayment, assertSubscriptionPayable } from '../subscription/subscription.service.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashSecret, newSecret } from '../../platform/tokens.ts';
import type { PlatformContext } from '../../platform/transaction.ts';
import { audit } from '../audit/audit.service.ts';
import { assertNewPassword } from '../auth/auth.service.ts';
import { createPharmacy } from '../tenancy/pharmacy.service.ts';
import { createOwnerAccount } from '../users/users.service.ts';
import { accessToken, type K2Result } from './k2.client.ts';
import {
  actAsTenant,
  payerOf,
  claimStkPush,
  countRecentPayments,
  emailRegistered,
  findKeyedPayment,
  findPayment,
  findPaymentByReceipt,
  flagPayment,
  insertPayment,
  insertPaymentEvent,
  markConfirmationQueued,
  markProvisioned,
  movePayment,
  setFirstPassword,
  setPharmacySlug,
  slugsLike,
  type PaymentRow,
} from './payments.repository.ts';

export interface PaymentDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
}

/** What the payments use cases need besides their transaction: the configuration and the mailer's outbox. */
export type PaymentMail = Pick<PaymentDeps, 'config' | 'mailer'>;

/** Job kinds of the payments module (decision 0011): the STK push and the status query that reconciles. */
export const STK_PUSH_JOB = 'k2_stk_push';
export const STATUS_QUERY_JOB = 'k2_status_query';

/** Limits on starting payments (decision 0045): per address, and per phone and per email. */
export const STK_LIMITS = { windowMinutes: 15, perIp: 20, perPhone: 5, perEmail: 5 } as const;

/**
 * Reconciliation (decision 0044): the first status query this long after the STK push, then again every
 * `everyMs`, at most `max` times. A callback that never comes is found by these queries.
 */
export const RECONCILE = { firstMs: 90_000, everyMs: 60_000, max: 15 };

/** Test hook: shorter reconciliation delays. */
export function setReconcileTiming(timing: Partial<typeof RECONCILE>): void {
  Object.assign(RECONCILE, timing);
}

function minutesBefore(now: Date, minutes: number): Date {
  return new Date(now.getTime() - minutes * 60_000);
}

/** POST /api/payments/email-check: may this email buy a licence (no user, no pharmacy owns it)? */
export async function checkEmail(q: Queryable, email: string): Promise<{ available: boolean }> {
  return { available: !(await emailRegistered(q, email.trim().toLowerCase())) };
}

/** The Idempotency-Key of a licence purchase and the hash of its request (platform/transaction.ts requestHash). */
export interface PurchaseKey {
  key: string;
  requestHash: string;
}

/** A licence purchase's answer, and whether it is the stored first answer of its Idempotency-Key (a replay). */
export interface StartedPurchase {
  answer: StkPushResponse;
  replayed: boolean;
}

const STK_SENT_MESSAGE = 'Payment request sent. Check your phone and enter your M-Pesa PIN.';

/**
 * The setup token of a keyed purchase (decision 0076): derived from the row's random seed and the key the browser
 * holds, so a replay answers the same token while neither the token nor the key is stored.
 */
function keyedSetupToken(seed: string, key: string): string {
  return createHmac('sha256', seed).update(`licence-setup:${key}`).digest('base64url');
}

/** The first answer again (the same request under the same key), or 422 for another request under that key. */
function replayPurchase(earlier: { requestHash: string; firstAnswer: unknown; setupTokenSeed: string }, idempotency: PurchaseKey): StartedPurchase {
  if (earlier.requestHash !== idempotency.requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  const first = earlier.firstAnswer as Omit<StkPushResponse, 'setupToken'>;
  return { answer: { ...first, setupToken: keyedSetupToken(earlier.setupTokenSeed, idempotency.key) }, replayed: true };
}

/**
 * POST /api/payments/kopokopo/stk-push: records a pending licence payment of the server's price and queues the STK
 * push (a job, so the K2 call happens only if the route's transaction commits and is retried if K2 is down). Refuses
 * a registered email, a plan other than 'complete', and more starts than the limits allow.
 *
 * With an Idempotency-Key (decision 0076) the payment row is the key's record: it is inserted first, under a unique
 * index on the key's hash, with the request's hash and the answer. A retry of the same request finds it and answers
 * the first answer (no second payment, no second STK push), even once the payment has completed; a concurrent retry
 * waits on the index until the first commits, then does the same; another request under that key is 422.
 */
export async function startLicencePayment(
  q: Queryable,
  ctx: PlatformContext,
  config: Config,
  input: StkPushRequest,
  idempotency: PurchaseKey | null = null,
): Promise<StartedPurchase> {
  const { now, ip } = ctx;
  if (!config.kopokopo) throw new AppError('PAYMENT_SERVICE_MISCONFIGURED');
  if (input.plan !== LICENCE_PLAN) throw new AppError('PAYMENT_INVALID_PLAN');
  const email = input.ownerEmail.trim().toLowerCase();
  const phone = normalizeMpesaPhone(input.phoneNumber);
  const price = PLATFORM_PRICES[LICENCE_PLAN];
  const id = randomUUID();
  const seed = idempotency ? newSecret() : null;
  const setupToken = seed && idempotency ? keyedSetupToken(seed, idempotency.key) : newSecret();
  const answer: StkPushResponse = { success: true, transactionId: id, setupToken, amount: price.amountCents / 100, message: STK_SENT_MESSAGE };
  const { setupToken: _secret, ...firstAnswer } = answer;
  const keyHash = idempotency ? hashSecret(idempotency.key) : null;
  const inserted = await insertPayment(q, {
    id,
    purpose: 'licence',
    plan: LICENCE_PLAN,
    amountCents: price.amountCents,
    phone,
    ownerEmail: email,
    ownerName: input.ownerName,
    pharmacyName: input.pharmacyName,
    registration: {
      ownerPhone: input.ownerPhone ?? null,
      location: input.location,
      county: input.county || null,
      licenseNumber: input.licenseNumber || null,
    },
    clientIp: ip.slice(0, 100),
    setupTokenHash: hashSecret(setupToken),
    forPharmacyId: null,
    requestedBy: null,
    at: now,
    keyed: idempotency && keyHash && seed ? { keyHash, requestHash: idempotency.requestHash, firstAnswer, setupTokenSeed: seed } : undefined,
  });
  if (!inserted) {
    // This key already made its payment (committed before this insert, or while it waited on the index): the first
    // answer, if this is the same request.
    const earlier = idempotency && keyHash ? await findKeyedPayment(q, 'licence', keyHash) : undefined;
    if (!earlier || !idempotency) throw new AppError('BUSY_TRY_AGAIN');
    return replayPurchase(earlier, idempotency);
  }
  // The checks run after the insert that claims the key, so a retry is answered by its key before any of them: a
  // retry after the payment completed (the email now registered) or at the limit still gets the first answer.
  if (await emailRegistered(q, email)) throw new AppError('PAYMENT_EMAIL_TAKEN');
  const recent = await countRecentPayments(q, { ip, phone, email, since: minutesBefore(now, STK_LIMITS.windowMinutes), except: id });
  if (recent.ip >= STK_LIMITS.perIp || recent.phone >= STK_LIMITS.perPhone || recent.email >= STK_LIMITS.perEmail) {
    throw new AppError('PAYMENT_RATE_LIMITED');
  }
  await enqueueJob(q, { kind: STK_PUSH_JOB, payload: { paymentId: id }, maxAttempts: 6 });
  return { answer, replayed: false };
}

function toStatus(p: PaymentRow): PaymentStatusResponse {
  return {
    success: true,
    transaction: {
      id: p.id,
      status: p.status,
      amount: p.amountCents / 100,
      phoneNumber: maskPhone(p.phone),
      mpesaReceiptNumber: p.mpesaReceipt,
      failureReason: p.failureReason,
      plan: p.plan,
      pharmacyId: p.provisionedPharmacyId,
      completedAt: p.completedAt,
    },
  };
}

/** GET /api/payments/kopokopo/status/:id: what the purchase screen polls; nothing personal (see its schema). */
export async function paymentStatus(q: Queryable, id: string): Promise<PaymentStatusResponse> {
  const payment = await findPayment(q, id);
  if (!payment || payment.purpose !== 'licence') throw new AppError('PAYMENT_NOT_FOUND');
  return toStatus(payment);
}

/** A free subdomain for the pharmacy: its slug, or the slug with the first free number. */
async function freeSubdomain(q: Queryable, name: string): Promise<string> {
  const base = subdomainSlug(name);
  const taken = new Set(await slugsLike(q, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function confirmationEmail(p: PaymentRow, config: Config): { to: string; subject: string; text: string } {
  const amount = (p.amountCents / 100).toLocaleString('en-KE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return {
    to: p.ownerEmail,
    subject: `Payment received: ${p.pharmacyName} on PharmaPoint`,
    text: [
      `Hello ${p.ownerName},`,
      '',
      `We received your M-Pesa payment of KSh ${amount} for the ${PLATFORM_PRICES.complete.name} of PharmaPoint.`,
      `Pharmacy: ${p.pharmacyName}`,
      `Transaction ID: ${p.id}`,
      `M-Pesa receipt: ${p.mpesaReceipt ?? '-'}`,
      `Payment date: ${(p.completedAt ? new Date(p.completedAt) : new Date()).toISOString().slice(0, 10)}`,
      '',
      `Set your password to finish your account, then sign in at ${config.publicUrl}/login.`,
      'Your hosting is paid for one year.',
    ].join('\n'),
  };
}

/**
 * Creates the pharmacy of a completed licence payment, in the caller's transaction: the owner's account (no
 * password yet), the pharmacy (pharm_ id, subdomain), its standard subscription with hosting paid for a year, its
 * Main Branch, default settings and the owner's membership (tenancy's createPharmacy), and the confirmation email.
 * A second payment for an email that already has an account creates nothing and is flagged for the operator.
 */
async function provision(q: Queryable, deps: PaymentMail, payment: PaymentRow, now: Date): Promise<void> {
  const userId = await createOwnerAccount(q, payment.ownerEmail, payment.ownerName);
  if (!userId) {
    await flagPayment(q, payment.id, 'duplicate_registration', now);
    return;
  }
  const created = await createPharmacy(q, { name: payment.pharmacyName, ownerUserId: userId, plan: 'standard', now });
  const subdomain = await freeSubdomain(q, payment.pharmacyName);
  await setPharmacySlug(q, created.pharmacyId, subdomain);
  await markProvisioned(q, payment.id, { pharmacyId: created.pharmacyId, ownerUserId: userId, subdomain });
  await audit(q, { pharmacyId: created.pharmacyId, userId }, 'create', 'pharmacy', created.pharmacyId, null, {
    name: payment.pharmacyName,
    subdomain,
    createdVia: 'payment_registration',
    transactionId: payment.id,
  });
  if (await markConfirmationQueued(q, payment.id)) {
    const after = (await findPayment(q, payment.id)) ?? payment;
    await deps.mailer.enqueue(q, confirmationEmail(after, deps.config), created.pharmacyId);
  }
}

/**
 * Applies what K2 said about a payment (a verified callback, or a status answer), once, in the caller's transaction
 * (the callback route's, or the status query job's): the raw body is recorded, the payment row is locked, and it
 * moves only forward. A completed licence payment provisions its pharmacy in the same transaction, so five copies of
 * one callback at once give one pharmacy.
 */
export async function applyK2Result(
  q: Queryable,
  deps: PaymentMail,
  result: K2Result,
  raw: { body: string; source: 'callback' | 'status_query' },
  now = new Date(),
): Promise<{ paymentId: string | null; status: PaymentStatus | null }> {
  if (result.status === 'Reversed') return applyReversal(q, result, raw.body, now);
  const payment = result.paymentId && /^[0-9a-f-]{36}$/i.test(result.paymentId) ? await findPayment(q, result.paymentId, { forUpdate: true }) : undefined;
  // A result for an incoming payment we did not ask for (or another payment's location): recorded, nothing moves.
  const matches = payment && (!payment.k2Location || !result.id || payment.k2Location.endsWith(`/${result.id}`));
  await insertPaymentEvent(q, { paymentId: matches ? payment.id : null, source: raw.source, k2Id: result.id, k2Status: result.status, rawBody: raw.body, at: now });
  if (!payment || !matches) return { paymentId: null, status: null };
  if (result.status === 'Success') {
    if (payment.status === 'completed') {
      // The same callback again: applied once. A different receipt is a second payment for the same request.
      if (result.reference && payment.mpesaReceipt && result.reference !== payment.mpesaReceipt) await flagPayment(q, payment.id, 'duplicate_payment', now);
      return { paymentId: payment.id, status: payment.status };
    }
    if (payment.status !== 'pending') {
      await flagPayment(q, payment.id, 'paid_after_failure', now);
      return { paymentId: payment.id, status: payment.status };
    }
    await movePayment(q, payment.id, 'pending', 'completed', { at: now, receipt: result.reference });
    const paidCents = result.amount === null ? payment.amountCents : Math.round(result.amount * 100);
    if (paidCents < payment.amountCents) {
      await flagPayment(q, payment.id, 'amount_mismatch', now);
      return { paymentId: payment.id, status: 'completed' };
    }
    const completed = (await findPayment(q, payment.id)) ?? payment;
    if (completed.purpose === 'licence') await provision(q, deps, completed, now);
    else if (completed.forPharmacyId) {
      await actAsTenant(q, completed.forPharmacyId);
      const applied = await applySubscriptionPayment(q, completed.forPharmacyId, { purpose: completed.purpose, amountCents: completed.amountCents, at: now });
      if (applied) {
        await audit(q, { pharmacyId: completed.forPharmacyId, userId: null }, completed.purpose === 'upgrade' ? 'upgrade' : 'pay_hosting', 'subscription', completed.forPharmacyId, null, {
          transactionId: completed.id,
          amountCents: completed.amountCents,
          receipt: completed.mpesaReceipt,
        });
      } else await flagPayment(q, completed.id, 'duplicate_payment', now);
    }
    return { paymentId: payment.id, status: 'completed' };
  }
  if (result.status === 'Failed' && canMovePayment(payment.status, 'failed')) {
    await movePayment(q, payment.id, 'pending', 'failed', { at: now, failureReason: result.errors ?? 'The payment was not completed. Please try again.' });
    return { paymentId: payment.id, status: 'failed' };
  }
  return { paymentId: payment.id, status: payment.status };
}

/** A reversal (buygoods_transaction_reversed, matched on the receipt): completed -> reversed, flagged when provisioned. */
async function applyReversal(q: Queryable, result: K2Result, body: string, now: Date): Promise<{ paymentId: string | null; status: PaymentStatus | null }> {
  const payment = result.reference ? await findPaymentByReceipt(q, result.reference, { forUpdate: true }) : undefined;
  await insertPaymentEvent(q, { paymentId: payment?.id ?? null, source: 'reversal', k2Id: result.id, k2Status: 'Reversed', rawBody: body, at: now });
  if (!payment) return { paymentId: null, status: null };
  if (canMovePayment(payment.status, 'reversed')) {
    await movePayment(q, payment.id, payment.status, 'reversed', { at: now, failureReason: 'The M-Pesa payment was reversed.' });
    if (payment.provisionedPharmacyId) await flagPayment(q, payment.id, 'reversed_after_provisioning', now);
    return { paymentId: payment.id, status: 'reversed' };
  }
  return { paymentId: payment.id, status: payment.status };
}

/** Queues the next status query of a payment (reconciliation). */
export async function queueStatusQuery(q: Queryable, paymentId: string, delayMs: number, now = new Date()): Promise<void> {
  await enqueueJob(q, { kind: STATUS_QUERY_JOB, payload: { paymentId }, runAt: new Date(now.getTime() + delayMs), maxAttempts: 5 });
}

/** Claims the one STK push of a payment; undefined when it is not pending or was already sent. */
export async function claimPush(q: Queryable, paymentId: string, now = new Date()): Promise<PaymentRow | undefined> {
  const payment = await findPayment(q, paymentId, { forUpdate: true });
  if (!payment || payment.status !== 'pending') return undefined;
  return (await claimStkPush(q, paymentId, now)) ? payment : undefined;
}

/** Marks a payment failed when K2 refused the STK push itself. */
export async function failPayment(q: Queryable, paymentId: string, reason: string, now = new Date()): Promise<void> {
  await movePayment(q, paymentId, 'pending', 'failed', { at: now, failureReason: reason.slice(0, 500) });
}

/** Whose first password a create-owner request sets: checked by ownerSetupOf, set by setOwnerPassword. */
export interface OwnerSetup {
  userId: string;
  pharmacyId: string;
  email: string;
  pharmacyName: string;
  subdomain: string | null;
}

/**
 * POST /api/tenants/create-owner, first step: the owner of a completed licence payment, with the secret the paying
 * browser got from stk-push, may set their password. The route hashes it after this transaction and sets it with
 * setOwnerPassword in a second one (a slow hash inside a transaction would hold its connection).
 */
export async function ownerSetupOf(q: Queryable, input: CreateOwnerRequest): Promise<OwnerSetup> {
  assertNewPassword(input.password, input.confirmPassword);
  const payment = await findPayment(q, input.transactionId);
  if (!payment || payment.purpose !== 'licence' || !payment.setupTokenHash) throw new AppError('OWNER_SETUP_INVALID');
  const expected = Buffer.from(payment.setupTokenHash);
  const got = Buffer.from(hashSecret(input.setupToken));
  if (expected.length !== got.length || !timingSafeEqual(expected, got)) throw new AppError('OWNER_SETUP_INVALID');
  if (input.email.trim().toLowerCase() !== payment.ownerEmail) throw new AppError('OWNER_SETUP_INVALID');
  if (payment.status !== 'completed' || !payment.ownerUserId || !payment.provisionedPharmacyId) {
    throw new AppError(payment.attention === 'duplicate_registration' ? 'OWNER_ALREADY_SET_UP' : 'PAYMENT_NOT_COMPLETED');
  }
  return { userId: payment.ownerUserId, pharmacyId: payment.provisionedPharmacyId, email: payment.ownerEmail, pharmacyName: payment.pharmacyName, subdomain: payment.subdomain };
}

/**
 * POST /api/tenants/create-owner, second step, in the pharmacy's transaction: the first password, only once (a second
 * call is refused and changes nothing), audited.
 */
export async function setOwnerPassword(q: Queryable, ctx: PlatformContext, setup: OwnerSetup, passwordHash: string): Promise<CreateOwnerResponse> {
  const { userId, pharmacyId } = setup;
  if (!(await setFirstPassword(q, userId, passwordHash, ctx.now))) throw new AppError('OWNER_ALREADY_SET_UP');
  await audit(q, { pharmacyId, userId }, 'update', 'user', userId, null, { passwordSet: true, via: 'password_setup' });
  return { success: true, email: setup.email, pharmacy: { id: pharmacyId, name: setup.pharmacyName, subdomain: setup.subdomain } };
}

/** POST /api/emails/payment-confirmation: queues the confirmation email of a completed payment, once. */
export async function requestConfirmationEmail(q: Queryable, deps: PaymentMail, paymentId: string): Promise<{ success: true; queued: boolean }> {
  const payment = await findPayment(q, paymentId, { forUpdate: true });
  if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
  if (payment.status !== 'completed') throw new AppError('PAYMENT_NOT_COMPLETED');
  if (!(await markConfirmationQueued(q, payment.id))) return { success: true as const, queued: false };
  await deps.mailer.enqueue(q, confirmationEmail(payment, deps.config), null);
  return { success: true as const, queued: true };
}

const healthCache = { at: 0, online: false };
const HEALTH_CACHE_MS = 30_000;

/** The kopokopo part of GET /health: configured, and online when an OAuth token can be had (cached 30 s). */
export async function kopokopoHealth(config: Config): Promise<KopokopoHealth> {
  const k2 = config.kopokopo;
  if (!k2) return { configured: false, status: 'offline', simulator: false };
  if (Date.now() - healthCache.at > HEALTH_CACHE_MS) {
    try {
      await accessToken(k2, { timeoutMs: 3000 });
      healthCache.online = true;
    } catch {
      healthCache.online = false;
    }
    healthCache.at = Date.now();
  }
  return { configured: true, status: healthCache.online ? 'online' : 'offline', simulator: k2.simulator };
}

/** Forget the cached health answer (tests). */
export function resetKopokopoHealth(): void {
  healthCache.at = 0;
}

function toSubscriptionPayment(p: PaymentRow): SubscriptionPayment {
  return {
    id: p.id,
    purpose: p.purpose === 'upgrade' ? 'upgrade' : 'hosting',
    status: p.status,
    amount: p.amountCents / 100,
    phoneNumber: p.phone,
    mpesaReceiptNumber: p.mpesaReceipt,
    failureReason: p.failureReason,
  };
}

/**
 * POST /api/subscription/payments (issue 11 item 6): an owner pays the licence of a trial or a year of hosting by
 * M-Pesa: a pending payment of the server's price for this pharmacy and the STK push, in the request's transaction.
 */
export async function startSubscriptionPayment(
  q: Queryable,
  ctx: RequestContext,
  config: Config,
  input: SubscriptionPaymentRequest,
  client: { ip: string },
): Promise<{ payment: SubscriptionPayment }> {
  if (!config.kopokopo) throw new AppError('PAYMENT_SERVICE_MISCONFIGURED');
  await assertSubscriptionPayable(q, ctx, input.purpose);
  const payer = await payerOf(q, ctx.userId, ctx.pharmacyId);
  if (!payer) throw new AppError('PHARMACY_NOT_FOUND');
  const phone = normalizeMpesaPhone(input.phoneNumber);
  const recent = await countRecentPayments(q, { ip: client.ip, phone, email: payer.email, since: minutesBefore(ctx.now, STK_LIMITS.windowMinutes) });
  if (recent.ip >= STK_LIMITS.perIp || recent.phone >= STK_LIMITS.perPhone || recent.email >= STK_LIMITS.perEmail) throw new AppError('PAYMENT_RATE_LIMITED');
  const id = randomUUID();
  await insertPayment(q, {
    id,
    purpose: input.purpose,
    plan: input.purpose === 'upgrade' ? LICENCE_PLAN : 'hosting',
    amountCents: subscriptionPaymentCents(input.purpose),
    phone,
    ownerEmail: payer.email,
    ownerName: payer.name,
    pharmacyName: payer.pharmacyName,
    registration: {},
    clientIp: client.ip.slice(0, 100),
    setupTokenHash: null,
    forPharmacyId: ctx.pharmacyId,
    requestedBy: ctx.userId,
    at: ctx.now,
  });
  await enqueueJob(q, { kind: STK_PUSH_JOB, payload: { paymentId: id }, pharmacyId: ctx.pharmacyId, maxAttempts: 6 });
  const created = await findPayment(q, id);
  if (!created) throw new Error('payment vanished');
  return { payment: toSubscriptionPayment(created) };
}

/** GET /api/subscription/payments/:id: one of this pharmacy's payments; another pharmacy's is 404. */
export async function subscriptionPayment(q: Queryable, ctx: RequestContext, id: string): Promise<{ payment: SubscriptionPayment }> {
  const payment = await findPayment(q, id);
  // An offline payment the operator recorded (migration 0027: no phone) is not an M-Pesa payment this screen polls.
  if (!payment || payment.forPharmacyId !== ctx.pharmacyId || payment.purpose === 'licence' || !payment.phone) throw new AppError('PAYMENT_NOT_FOUND');
  return { payment: toSubscriptionPayment(payment) };
}
