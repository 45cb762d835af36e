import type { Discount } from '@pharmapoint/domain/sales';
import { paymentStatus } from '@pharmapoint/domain/sales';
import type {
  Reservation,
  SuspendedSale,
  SuspendedSaleLine,
  SuspendedSaleListQuery,
  SuspendedSaleSummary,
} from '@pharmapoint/domain/suspended-sales';
import type { Queryable } from '../../db/database.ts';

/**
 * All SQL of suspended sales (the products a cart is priced from are read by sales/cart-pricing.repository.ts): the
 * suspended sale's row (written once, locked and closed when completed or cancelled) and the reads of the list.
 */

export async function suspendedSaleExists(q: Queryable, pharmacyId: string, id: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM suspended_sales WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, id])).length > 0;
}

/** The signed-in user's name and email, stamped on the suspension. */
export async function findUser(q: Queryable, userId: string): Promise<{ name: string; email: string | null } | undefined> {
  const [row] = await q.query<{ name: string | null; email: string }>(`SELECT name, email FROM users WHERE id = $1`, [userId]);
  return row ? { name: row.name ?? row.email, email: row.email } : undefined;
}

/** The batches' expiry dates as they are now (a reservation remembers them as they were at suspension). */
export async function findBatchExpiries(q: Queryable, pharmacyId: string, batchIds: readonly string[]): Promise<Map<string, string | null>> {
  if (batchIds.length === 0) return new Map();
  const rows = await q.query<{ id: string; expiry_date: string | null }>(`SELECT id, expiry_date FROM batches WHERE pharmacy_id = $1 AND id = ANY ($2::uuid[])`, [
    pharmacyId,
    batchIds,
  ]);
  return new Map(rows.map((r) => [r.id, r.expiry_date]));
}

// ------------------------------------------------------------------------------------------- writes

export interface NewSuspendedSale {
  id: string;
  reservationId: string;
  branchId: string;
  client: { id: string; name: string; phone: string | null; location: string | null };
  lines: SuspendedSaleLine[];
  reservations: Reservation[];
  discount: Discount | null;
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  paymentMethod: string;
  amountPaidCents: number;
  notes: string;
  suspendedBy: { id: string; name: string; email: string | null };
  at: Date;
}

export async function insertSuspendedSale(q: Queryable, pharmacyId: string, s: NewSuspendedSale): Promise<void> {
  await q.query(
    `INSERT INTO suspended_sales (pharmacy_id, id, reservation_id, branch_id, client_id, client_name, client_phone, client_location, lines,
                                  reservations, discount, subtotal_cents, discount_cents, tax_cents, total_cents, payment_method,
                                  amount_paid_cents, notes, cart_item_count, suspended_by, suspended_by_name, suspended_by_email, suspended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
    [
      pharmacyId,
      s.id,
      s.reservationId,
      s.branchId,
      s.client.id,
      s.client.name,
      s.client.phone,
      s.client.location,
      JSON.stringify(s.lines),
      JSON.stringify(s.reservations),
      s.discount ? JSON.stringify(s.discount) : null,
      s.subtotalCents,
      s.discountCents,
      s.taxCents,
      s.totalCents,
      s.paymentMethod,
      s.amountPaidCents,
      s.notes,
      s.lines.length,
      s.suspendedBy.id,
      s.suspendedBy.name,
      s.suspendedBy.email,
      s.at,
    ],
  );
}

/** Closes an open suspension: completed by a sale, or cancelled. */
export async function closeSuspendedSale(
  q: Queryable,
  pharmacyId: string,
  id: string,
  close: { status: 'completed' | 'cancelled'; saleId: string | null; userId: string; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE suspended_sales SET status = $3, sale_id = $4, closed_by = $5, closed_at = $6
      WHERE pharmacy_id = $1 AND id = $2 AND status = 'suspended'`,
    [pharmacyId, id, close.status, close.saleId, close.userId, close.at],
  );
}

// ------------------------------------------------------------------------------------------- reads

interface SuspendedRow {
  id: string;
  reservation_id: string;
  branch_id: string;
  branch_name: string;
  client_id: string;
  client_name: string;
  client_phone: string | null;
  client_location: string | null;
  lines: SuspendedSaleLine[];
  reservations: Reservation[];
  discount: Discount | null;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  total_cents: number;
  payment_method: string;
  amount_paid_cents: number;
  notes: string;
  cart_item_count: number;
  version: string;
  suspended_by: string | null;
  suspended_by_name: string;
  suspended_by_email: string | null;
  suspended_at: string;
  status: 'suspended' | 'completed' | 'cancelled';
  sale_id: string | null;
}

const SUMMARY_COLUMNS = `s.id, s.reservation_id, s.branch_id, b.name AS branch_name, s.client_id, s.client_name, s.client_phone, s.client_location,
  s.total_cents, s.payment_method, s.amount_paid_cents, s.notes, s.cart_item_count, s.suspended_by, s.suspended_by_name, s.suspended_by_email,
  s.suspended_at, s.status, s.sale_id`;
const ALL_COLUMNS = `${SUMMARY_COLUMNS}, s.lines, s.reservations, s.discount, s.subtotal_cents, s.discount_cents, s.tax_cents, s.version`;
const FROM = `suspended_sales s JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id`;

function toSummary(row: SuspendedRow): SuspendedSaleSummary {
  return {
    id: row.id,
    reservationId: row.reservation_id,
    branchId: row.branch_id,
    branchName: row.branch_name,
    client: { id: row.client_id, name: row.client_name, phone: row.client_phone, location: row.client_location },
    clientName: row.client_name,
    clientPhone: row.client_phone,
    totalCents: row.total_cents,
    paymentMethod: row.payment_method,
    amountPaidCents: row.amount_paid_cents,
    paymentStatus: paymentStatus(row.amount_paid_cents, row.total_cents).status,
    notes: row.notes,
    status: 'suspended',
    cartItemCount: row.cart_item_count,
    suspendedAt: row.suspended_at,
    suspendedBy: { id: row.suspended_by, name: row.suspended_by_name, email: row.suspended_by_email },
  };
}

function toSuspendedSale(row: SuspendedRow): SuspendedSale {
  return {
    ...toSummary(row),
    version: row.version,
    stockReserved: true,
    subtotalCents: row.subtotal_cents,
    discount: row.discount ? (row.discount.type === 'percent' ? { type: 'percent', basisPoints: row.discount.basisPoints } : { type: 'fixed', cents: row.discount.cents }) : null,
    discountCents: row.discount_cents,
    taxCents: row.tax_cents,
    lines: row.lines,
    reservations: row.reservations,
  };
}

export interface StoredSuspendedSale {
  sale: SuspendedSale;
  status: SuspendedRow['status'];
  saleId: string | null;
}

/** One suspended sale in any state (locked until the transaction ends with `lock`); undefined when there is none. */
export async function findSuspendedSale(q: Queryable, pharmacyId: string, id: string, lock = false): Promise<StoredSuspendedSale | undefined> {
  const [row] = await q.query<SuspendedRow>(`SELECT ${ALL_COLUMNS} FROM ${FROM} WHERE s.pharmacy_id = $1 AND s.id = $2 ${lock ? 'FOR UPDATE OF s' : ''}`, [
    pharmacyId,
    id,
  ]);
  return row ? { sale: toSuspendedSale(row), status: row.status, saleId: row.sale_id } : undefined;
}

/** Open suspended sales, newest first, filtered; `branchIds` null = every branch. */
export async function listSuspendedSales(
  q: Queryable,
  pharmacyId: string,
  query: SuspendedSaleListQuery,
  branchIds: readonly string[] | null,
  now: Date,
): Promise<{ items: SuspendedSaleSummary[]; total: number }> {
  const params: unknown[] = [pharmacyId];
  const where = [`s.pharmacy_id = $1`, `s.status = 'suspended'`];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (branchIds) add('s.branch_id = ANY (?::uuid[])', branchIds);
  if (query.branchId) add('s.branch_id = ?', query.branchId);
  if (query.clientId) add('s.client_id = ?', query.clientId);
  if (query.minAgeDays !== undefined) add('s.suspended_at <= ?::timestamptz', new Date(now.getTime() - query.minAgeDays * 86_400_000));
  if (query.maxAgeDays !== undefined) add('s.suspended_at > ?::timestamptz', new Date(now.getTime() - (query.maxAgeDays + 1) * 86_400_000));
  const whereSql = where.join(' AND ');
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM suspended_sales s WHERE ${whereSql}`, params);
  const rows = await q.query<SuspendedRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM ${FROM} WHERE ${whereSql} ORDER BY s.suspended_at DESC, s.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return { items: rows.map(toSummary), total: count?.n ?? 0 };
}
