import type { PaymentStatus } from '@pharmapoint/domain/platform-payments';
import type { Queryable } from '../../db/database.ts';

/** One platform payment (migration 0022). */
export interface PaymentRow {
  id: string;
  purpose: 'licence' | 'hosting' | 'upgrade';
  plan: string;
  amountCents: number;
  phone: string;
  ownerEmail: string;
  ownerName: string;
  pharmacyName: string;
  registration: Record<string, unknown>;
  setupTokenHash: string | null;
  forPharmacyId: string | null;
  status: PaymentStatus;
  k2Location: string | null;
  k2RequestedAt: string | null;
  statusQueries: number;
  mpesaReceipt: string | null;
  failureReason: string | null;
  provisionedPharmacyId: string | null;
  ownerUserId: string | null;
  subdomain: string | null;
  attention: string | null;
  confirmationEmailQueued: boolean;
  createdAt: string;
  completedAt: string | null;
}

const COLUMNS = `id, purpose, plan, amount_cents AS "amountCents", phone, owner_email AS "ownerEmail", owner_name AS "ownerName",
  pharmacy_name AS "pharmacyName", registration, setup_token_hash AS "setupTokenHash", for_pharmacy_id AS "forPharmacyId", status,
  k2_location AS "k2Location", k2_requested_at AS "k2RequestedAt", status_queries AS "statusQueries", mpesa_receipt AS "mpesaReceipt",
  failure_reason AS "failureReason", provisioned_pharmacy_id AS "provisionedPharmacyId", owner_user_id AS "ownerUserId", subdomain,
  attention, confirmation_email_queued AS "confirmationEmailQueued", created_at AS "createdAt", completed_at AS "completedAt"`;

export interface NewPayment {
  id: string;
  purpose: PaymentRow['purpose'];
  plan: string;
  amountCents: number;
  phone: string;
  ownerEmail: string;
  ownerName: string;
  pharmacyName: string;
  registration: Record<string, unknown>;
  clientIp: string | null;
  setupTokenHash: string | null;
  forPharmacyId: string | null;
  requestedBy: string | null;
  at: Date;
  /** A licence purchase sent with an Idempotency-Key (migration 0035, decision 0076). */
  keyed?: KeyedStart;
}

/** What a keyed licence purchase keeps of its Idempotency-Key: the key's hash, the request's, the first answer, the token's seed. */
export interface KeyedStart {
  keyHash: string;
  requestHash: string;
  firstAnswer: unknown;
  setupTokenSeed: string;
}

/**
 * Inserts the payment; false when a payment of this purpose already holds the same Idempotency-Key (nothing is
 * inserted). A concurrent insert under the same key waits on the unique index until the other transaction ends:
 * when it commits, this one inserts nothing; when it rolls back, this one inserts.
 */
export async function insertPayment(q: Queryable, p: NewPayment): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO platform_payments (id, purpose, plan, amount_cents, phone, owner_email, owner_name, pharmacy_name, registration, client_ip,
                                    setup_token_hash, for_pharmacy_id, requested_by, created_at, updated_at,
                                    idempotency_key_hash, request_hash, first_answer, setup_token_seed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16, $17, $18)
     ON CONFLICT (purpose, idempotency_key_hash) WHERE idempotency_key_hash IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      p.id,
      p.purpose,
      p.plan,
      p.amountCents,
      p.phone,
      p.ownerEmail,
      p.ownerName,
      p.pharmacyName,
      JSON.stringify(p.registration),
      p.clientIp,
      p.setupTokenHash,
      p.forPharmacyId,
      p.requestedBy,
      p.at,
      p.keyed?.keyHash ?? null,
      p.keyed?.requestHash ?? null,
      p.keyed ? JSON.stringify(p.keyed.firstAnswer) : null,
      p.keyed?.setupTokenSeed ?? null,
    ],
  );
  return rows.length > 0;
}

/** The payment a keyed licence purchase made earlier: its id, the request's hash, the first answer and the token's seed. */
export async function findKeyedPayment(
  q: Queryable,
  purpose: PaymentRow['purpose'],
  keyHash: string,
): Promise<{ id: string; requestHash: string; firstAnswer: unknown; setupTokenSeed: string } | undefined> {
  const [row] = await q.query<{ id: string; requestHash: string; firstAnswer: unknown; setupTokenSeed: string }>(
    `SELECT id, request_hash AS "requestHash", first_answer AS "firstAnswer", setup_token_seed AS "setupTokenSeed"
       FROM platform_payments WHERE purpose = $1 AND idempotency_key_hash = $2`,
    [purpose, keyHash],
  );
  return row;
}

/**
 * STK payments started since `since` from this address, for this phone and for this email (offline ones, 0027, do not
 * count), leaving out `except` (the payment being started, already inserted in this transaction).
 */
export async function countRecentPayments(
  q: Queryable,
  input: { ip: string; phone: string; email: string; since: Date; except?: string },
): Promise<{ ip: number; phone: number; email: number }> {
  const except = input.except ?? null;
  const [row] = await q.query<{ ip: number; phone: number; email: number }>(
    `SELECT (SELECT count(*)::int FROM platform_payments WHERE client_ip = $1 AND created_at >= $4 AND id IS DISTINCT FROM $5::uuid) AS ip,
            (SELECT count(*)::int FROM platform_payments WHERE phone = $2 AND created_at >= $4 AND id IS DISTINCT FROM $5::uuid) AS phone,
            (SELECT count(*)::int FROM platform_payments WHERE owner_email = $3 AND created_at >= $4 AND method = 'mpesa_stk' AND id IS DISTINCT FROM $5::uuid) AS email`,
    [input.ip, input.phone, input.email, input.since, except],
  );
  return row ?? { ip: 0, phone: 0, email: 0 };
}

export async function findPayment(q: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow | undefined> {
  const [row] = await q.query<PaymentRow>(`SELECT ${COLUMNS} FROM platform_payments WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** The completed payment with this M-Pesa receipt (a reversal names the receipt). */
export async function findPaymentByReceipt(q: Queryable, receipt: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow | undefined> {
  const [row] = await q.query<PaymentRow>(
    `SELECT ${COLUMNS} FROM platform_payments WHERE mpesa_receipt = $1 ORDER BY created_at LIMIT 1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [receipt],
  );
  return row;
}

/** Claims the one STK push of a payment: true only for the first caller. */
export async function claimStkPush(q: Queryable, id: string, at: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE platform_payments SET k2_requested_at = $2, updated_at = $2 WHERE id = $1 AND status = 'pending' AND k2_requested_at IS NULL RETURNING id`,
    [id, at],
  );
  return rows.length > 0;
}

/** Gives the claim back (the request never reached K2). */
export async function releaseStkPush(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE platform_payments SET k2_requested_at = NULL WHERE id = $1 AND k2_location IS NULL`, [id]);
}

export async function setLocation(q: Queryable, id: string, location: string, at: Date): Promise<void> {
  await q.query(`UPDATE platform_payments SET k2_location = $2, updated_at = $3 WHERE id = $1`, [id, location, at]);
}

export async function countStatusQuery(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE platform_payments SET status_queries = status_queries + 1 WHERE id = $1`, [id]);
}

/** Moves a payment from `from` to `to` (only forward: the caller checked canMovePayment); false when it was no longer `from`. */
export async function movePayment(
  q: Queryable,
  id: string,
  from: PaymentStatus,
  to: PaymentStatus,
  values: { at: Date; receipt?: string | null; failureReason?: string | null },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE platform_payments
        SET status = $3, updated_at = $4,
            completed_at = CASE WHEN $3 = 'completed' THEN $4 ELSE completed_at END,
            mpesa_receipt = COALESCE($5, mpesa_receipt),
            failure_reason = COALESCE($6, failure_reason)
      WHERE id = $1 AND status = $2
      RETURNING id`,
    [id, from, to, values.at, values.receipt ?? null, values.failureReason ?? null],
  );
  return rows.length > 0;
}

export async function markProvisioned(q: Queryable, id: string, values: { pharmacyId: string; ownerUserId: string; subdomain: string }): Promise<void> {
  await q.query(`UPDATE platform_payments SET provisioned_pharmacy_id = $2, owner_user_id = $3, subdomain = $4 WHERE id = $1`, [
    id,
    values.pharmacyId,
    values.ownerUserId,
    values.subdomain,
  ]);
}

export async function flagPayment(q: Queryable, id: string, attention: string, at: Date): Promise<void> {
  await q.query(`UPDATE platform_payments SET attention = $2, updated_at = $3 WHERE id = $1`, [id, attention, at]);
}

/** True the first time only. */
export async function markConfirmationQueued(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.query(`UPDATE platform_payments SET confirmation_email_queued = true WHERE id = $1 AND NOT confirmation_email_queued RETURNING id`, [id]);
  return rows.length > 0;
}

export async function insertPaymentEvent(
  q: Queryable,
  event: { paymentId: string | null; source: 'callback' | 'status_query' | 'reversal'; k2Id: string | null; k2Status: string | null; rawBody: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO platform_payment_events (payment_id, source, k2_id, k2_status, raw_body, received_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [event.paymentId, event.source, event.k2Id?.slice(0, 200) ?? null, event.k2Status?.slice(0, 40) ?? null, event.rawBody.slice(0, 65536), event.at],
  );
}

/** Is the email an existing user's, or a pharmacy's owner email (seed 002 section 7, existing-account check)? */
export async function emailRegistered(q: Queryable, email: string): Promise<boolean> {
  const [row] = await q.query<{ taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE email = $1) OR EXISTS (SELECT 1 FROM pharmacies WHERE lower(owner_email) = $1) AS taken`,
    [email],
  );
  return row?.taken ?? false;
}

/** Subdomains already taken that start with this slug. */
export async function slugsLike(q: Queryable, slug: string): Promise<string[]> {
  const rows = await q.query<{ slug: string }>(`SELECT slug FROM pharmacies WHERE slug = $1 OR slug LIKE $2`, [slug, `${slug}-%`]);
  return rows.map((r) => r.slug);
}

export async function setPharmacySlug(q: Queryable, pharmacyId: string, slug: string): Promise<void> {
  await q.query(`UPDATE pharmacies SET slug = $2 WHERE id = $1`, [pharmacyId, slug]);
}

/** Sets the first password of an account that has none; the email counts as verified. False when it had one. */
export async function setFirstPassword(q: Queryable, userId: string, passwordHash: string, at: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, $3), updated_at = $3
      WHERE id = $1 AND NOT has_password RETURNING id`,
    [userId, passwordHash, at],
  );
  return rows.length > 0;
}

/** Makes the transaction's tenant this pharmacy (local to the transaction), to change its subscription. */
export async function actAsTenant(q: Queryable, pharmacyId: string): Promise<void> {
  await q.query(`SELECT set_config('app.pharmacy_id', $1, true)`, [pharmacyId]);
}

/** Who pays from /app/subscription: their email and name, and the pharmacy's name. */
export async function payerOf(q: Queryable, userId: string, pharmacyId: string): Promise<{ email: string; name: string; pharmacyName: string } | undefined> {
  const [row] = await q.query<{ email: string; name: string; pharmacyName: string }>(
    `SELECT u.email, u.name, p.name AS "pharmacyName" FROM users u, pharmacies p WHERE u.id = $1 AND p.id = $2`,
    [userId, pharmacyId],
  );
  return row;
}
