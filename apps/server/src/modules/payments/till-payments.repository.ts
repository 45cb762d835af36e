import type { TillMpesaAttention, TillMpesaResolutionKind, TillMpesaStatus } from '@pharmapoint/domain/till-mpesa';
import type { Queryable } from '../../db/database.ts';

/** One till payment request (migration 0026). */
export interface TillPaymentRow {
  pharmacyId: string;
  id: string;
  saleId: string;
  branchId: string;
  requestedBy: string;
  requestedByName: string;
  requester: unknown;
  saleInput: unknown;
  amountCents: number;
  phone: string;
  status: TillMpesaStatus;
  attention: TillMpesaAttention | null;
  k2Location: string | null;
  k2RequestedAt: string | null;
  statusQueries: number;
  mpesaReceipt: string | null;
  paidCents: number | null;
  failureReason: string | null;
  completedSaleId: string | null;
  saleRecorded: boolean;
  branchName: string;
  /** The invoice number of the sale with saleId, when it exists. */
  saleInvoiceNumber: string | null;
  resolution: TillMpesaResolutionKind | null;
  resolutionReference: string | null;
  resolutionNote: string | null;
  resolvedSaleId: string | null;
  resolvedSaleInvoiceNumber: string | null;
  resolvedBy: string | null;
  resolvedByName: string | null;
  resolvedAt: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const COLUMNS = `r.pharmacy_id AS "pharmacyId", r.id, r.sale_id AS "saleId", r.branch_id AS "branchId", r.requested_by AS "requestedBy",
  COALESCE(NULLIF(u.name, ''), u.email, '') AS "requestedByName", r.requester, r.sale_input AS "saleInput", r.amount_cents AS "amountCents",
  r.phone, r.status, r.attention, r.k2_location AS "k2Location", r.k2_requested_at AS "k2RequestedAt", r.status_queries AS "statusQueries",
  r.mpesa_receipt AS "mpesaReceipt", r.paid_cents AS "paidCents", r.failure_reason AS "failureReason", r.completed_sale_id AS "completedSaleId",
  s.id IS NOT NULL AS "saleRecorded", s.invoice_number AS "saleInvoiceNumber", COALESCE(b.name, '') AS "branchName",
  r.resolution, r.resolution_reference AS "resolutionReference", r.resolution_note AS "resolutionNote",
  r.resolved_sale_id AS "resolvedSaleId", rs.invoice_number AS "resolvedSaleInvoiceNumber", r.resolved_by AS "resolvedBy",
  COALESCE(NULLIF(ru.name, ''), ru.email) AS "resolvedByName", r.resolved_at AS "resolvedAt",
  r.created_at AS "createdAt", r.finished_at AS "finishedAt"`;
const FROM = `FROM till_payment_requests r
  LEFT JOIN users u ON u.id = r.requested_by
  LEFT JOIN branches b ON b.pharmacy_id = r.pharmacy_id AND b.id = r.branch_id
  LEFT JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id
  LEFT JOIN sales rs ON rs.pharmacy_id = r.pharmacy_id AND rs.id = r.resolved_sale_id
  LEFT JOIN users ru ON ru.id = r.resolved_by`;

export interface NewTillPayment {
  pharmacyId: string;
  id: string;
  saleId: string;
  branchId: string;
  requestedBy: string;
  requester: unknown;
  saleInput: unknown;
  amountCents: number;
  phone: string;
  at: Date;
}

export async function insertTillPayment(q: Queryable, p: NewTillPayment): Promise<void> {
  await q.query(
    `INSERT INTO till_payment_requests (pharmacy_id, id, sale_id, branch_id, requested_by, requester, sale_input, amount_cents, phone, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [p.pharmacyId, p.id, p.saleId, p.branchId, p.requestedBy, JSON.stringify(p.requester), JSON.stringify(p.saleInput), p.amountCents, p.phone, p.at],
  );
}

export async function findTillPayment(q: Queryable, pharmacyId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<TillPaymentRow | undefined> {
  const [row] = await q.query<TillPaymentRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE r.pharmacy_id = $1 AND r.id = $2${options.forUpdate ? ' FOR UPDATE OF r' : ''}`,
    [pharmacyId, id],
  );
  return row;
}

/** The request whose K2 resource URL ends with this incoming payment id (a callback without our metadata). */
export async function findTillPaymentByK2Id(q: Queryable, pharmacyId: string, k2Id: string, options: { forUpdate?: boolean } = {}): Promise<TillPaymentRow | undefined> {
  const [row] = await q.query<TillPaymentRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE r.pharmacy_id = $1 AND right(r.k2_location, length($2) + 1) = '/' || $2 ORDER BY r.created_at LIMIT 1${options.forUpdate ? ' FOR UPDATE OF r' : ''}`,
    [pharmacyId, k2Id],
  );
  return row;
}

/** The request of this sale waiting for the customer, if any. */
export async function findPendingForSale(q: Queryable, pharmacyId: string, saleId: string): Promise<TillPaymentRow | undefined> {
  const [row] = await q.query<TillPaymentRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.pharmacy_id = $1 AND r.sale_id = $2 AND r.status = 'pending'`, [pharmacyId, saleId]);
  return row;
}

export interface TillPaymentFilter {
  status?: TillMpesaStatus | 'attention';
  branchId?: string;
  /** Days in the pharmacy's time zone, inclusive. */
  from?: string;
  to?: string;
  timeZone: string;
  /** The branches the user may see (null: all). */
  visibleBranchIds: readonly string[] | null;
  limit: number;
  offset: number;
}

function filterSql(pharmacyId: string, f: Omit<TillPaymentFilter, 'limit' | 'offset'>): { where: string; params: unknown[] } {
  const params: unknown[] = [pharmacyId];
  const add = (value: unknown) => `$${params.push(value)}`;
  const clauses = ['r.pharmacy_id = $1'];
  if (f.status === 'attention') clauses.push(`(r.status = 'unmatched' OR (r.attention IS NOT NULL AND r.status <> 'resolved'))`);
  else if (f.status) clauses.push(`r.status = ${add(f.status)}`);
  if (f.branchId) clauses.push(`r.branch_id = ${add(f.branchId)}`);
  if (f.visibleBranchIds) clauses.push(`r.branch_id = ANY(${add(f.visibleBranchIds)}::uuid[])`);
  // A day's bounds as instants in the pharmacy's time zone (the index on created_at stays usable).
  if (f.from || f.to) {
    const tz = add(f.timeZone);
    if (f.from) clauses.push(`r.created_at >= (${add(f.from)}::date::timestamp AT TIME ZONE ${tz})`);
    if (f.to) clauses.push(`r.created_at < ((${add(f.to)}::date + 1)::timestamp AT TIME ZONE ${tz})`);
  }
  return { where: clauses.join(' AND '), params };
}

/** The owner's list: one page, newest first, and how many requests the filters select. */
export async function listTillPayments(q: Queryable, filter: TillPaymentFilter & { pharmacyId: string }): Promise<{ rows: TillPaymentRow[]; total: number }> {
  const { where, params } = filterSql(filter.pharmacyId, filter);
  const rows = await q.query<TillPaymentRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${where} ORDER BY r.created_at DESC, r.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, filter.limit, filter.offset],
  );
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM till_payment_requests r WHERE ${where}`, params);
  return { rows, total: count?.n ?? 0 };
}

/** A sale of the pharmacy by its invoice number (unmatched money applied to it). */
export async function findSaleByInvoice(q: Queryable, pharmacyId: string, invoiceNumber: string): Promise<{ id: string; invoiceNumber: string; branchId: string; status: string } | undefined> {
  const [row] = await q.query<{ id: string; invoiceNumber: string; branchId: string; status: string }>(
    `SELECT id, invoice_number AS "invoiceNumber", branch_id AS "branchId", status FROM sales WHERE pharmacy_id = $1 AND invoice_number = $2`,
    [pharmacyId, invoiceNumber],
  );
  return row;
}

/** Records the owner's reconciliation of unmatched money; false when the request was no longer unmatched. */
export async function resolveTillPaymentRow(
  q: Queryable,
  pharmacyId: string,
  id: string,
  values: { resolution: TillMpesaResolutionKind; reference: string | null; note: string; saleId: string | null; by: string; at: Date },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE till_payment_requests
        SET status = 'resolved', resolution = $3, resolution_reference = $4, resolution_note = $5, resolved_sale_id = $6,
            resolved_by = $7, resolved_at = $8, updated_at = $8
      WHERE pharmacy_id = $1 AND id = $2 AND status = 'unmatched'
      RETURNING id`,
    [pharmacyId, id, values.resolution, values.reference, values.note, values.saleId, values.by, values.at],
  );
  return rows.length > 0;
}

/** Claims the one STK push of a request: true only for the first caller. */
export async function claimTillPush(q: Queryable, pharmacyId: string, id: string, at: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE till_payment_requests SET k2_requested_at = $3, updated_at = $3
      WHERE pharmacy_id = $1 AND id = $2 AND status = 'pending' AND k2_requested_at IS NULL RETURNING id`,
    [pharmacyId, id, at],
  );
  return rows.length > 0;
}

/** Gives the claim back (the request never reached K2). */
export async function releaseTillPush(q: Queryable, pharmacyId: string, id: string): Promise<void> {
  await q.query(`UPDATE till_payment_requests SET k2_requested_at = NULL WHERE pharmacy_id = $1 AND id = $2 AND k2_location IS NULL`, [pharmacyId, id]);
}

export async function setTillLocation(q: Queryable, pharmacyId: string, id: string, location: string, at: Date): Promise<void> {
  await q.query(`UPDATE till_payment_requests SET k2_location = $3, updated_at = $4 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, location, at]);
}

export async function countTillStatusQuery(q: Queryable, pharmacyId: string, id: string): Promise<void> {
  await q.query(`UPDATE till_payment_requests SET status_queries = status_queries + 1 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id]);
}

/**
 * Moves a request from `from` to `to` (the caller checked canMoveTillPayment) with what is known; false when it was
 * no longer `from`.
 */
export async function moveTillPayment(
  q: Queryable,
  pharmacyId: string,
  id: string,
  from: TillMpesaStatus,
  to: TillMpesaStatus,
  values: { at: Date; receipt?: string | null; paidCents?: number | null; failureReason?: string | null; attention?: TillMpesaAttention | null; saleId?: string | null },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE till_payment_requests
        SET status = $4, updated_at = $5, finished_at = COALESCE(finished_at, $5),
            mpesa_receipt = COALESCE($6, mpesa_receipt),
            paid_cents = COALESCE($7, paid_cents),
            failure_reason = COALESCE($8, failure_reason),
            attention = COALESCE($9, attention),
            completed_sale_id = COALESCE($10, completed_sale_id)
      WHERE pharmacy_id = $1 AND id = $2 AND status = $3
      RETURNING id`,
    [pharmacyId, id, from, to, values.at, values.receipt ?? null, values.paidCents ?? null, values.failureReason?.slice(0, 500) ?? null, values.attention ?? null, values.saleId ?? null],
  );
  return rows.length > 0;
}

/** Flags a request for the owner without moving it (a second payment for a completed request). */
export async function flagTillPayment(q: Queryable, pharmacyId: string, id: string, attention: TillMpesaAttention, at: Date): Promise<void> {
  await q.query(`UPDATE till_payment_requests SET attention = $3, updated_at = $4 WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id, attention, at]);
}

export async function insertTillPaymentEvent(
  q: Queryable,
  event: { pharmacyId: string; requestId: string | null; source: 'callback' | 'status_query'; k2Id: string | null; k2Status: string | null; rawBody: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO till_payment_events (pharmacy_id, request_id, source, k2_id, k2_status, raw_body, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [event.pharmacyId, event.requestId, event.source, event.k2Id?.slice(0, 200) ?? null, event.k2Status?.slice(0, 40) ?? null, event.rawBody.slice(0, 65536), event.at],
  );
}
