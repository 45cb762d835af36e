import type { ExpenseGroup, ExpenseValues } from '@pharmapoint/domain/expense-report';
import type { Expense, ExpenseListQuery, ExpenseSource, ExpenseStatus } from '@pharmapoint/domain/expenses';
import type { Queryable } from '../../db/database.ts';

/** All SQL of expenses. */

interface ExpenseRow {
  id: string;
  branch_id: string;
  branch_name: string;
  expense_date: string;
  description: string;
  category: string;
  amount_cents: number;
  total_cents: number;
  currency: string;
  payment_method: string;
  receipt_number: string | null;
  notes: string | null;
  contact_phone: string | null;
  destination: string | null;
  reason: string | null;
  transport_type: string | null;
  distance_km: number | null;
  fuel_cents: number;
  toll_cents: number;
  parking_cents: number;
  meal_allowance_cents: number;
  is_transport: boolean;
  status: ExpenseStatus;
  source: ExpenseSource;
  entry_method: string;
  recorded_by: string | null;
  recorded_by_name: string;
  recorded_by_email: string | null;
  approved_by: string | null;
  approved_at: string | null;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  voided_by: string | null;
  voided_by_name: string | null;
  void_reason: string | null;
}

const COLUMNS = `e.id, e.branch_id, b.name AS branch_name, e.expense_date, e.description, e.category, e.amount_cents, e.total_cents,
  e.currency, e.payment_method, e.receipt_number, e.notes, e.contact_phone, e.destination, e.reason, e.transport_type, e.distance_km,
  e.fuel_cents, e.toll_cents, e.parking_cents, e.meal_allowance_cents, e.is_transport, e.status, e.source, e.entry_method,
  e.recorded_by, e.recorded_by_name, e.recorded_by_email, e.approved_by, e.approved_at, e.created_at, e.updated_at,
  e.voided_at, e.voided_by, e.voided_by_name, e.void_reason`;
const FROM = `expenses e JOIN branches b ON b.pharmacy_id = e.pharmacy_id AND b.id = e.branch_id`;

function toExpense(row: ExpenseRow): Expense {
  return {
    id: row.id,
    branchId: row.branch_id,
    branchName: row.branch_name,
    date: row.expense_date,
    description: row.description,
    category: row.category,
    amountCents: row.amount_cents,
    totalCents: row.total_cents,
    currency: row.currency,
    paymentMethod: row.payment_method,
    receiptNumber: row.receipt_number,
    notes: row.notes,
    contactPhone: row.contact_phone,
    status: row.status,
    source: row.source,
    entryMethod: row.entry_method,
    recordedBy: { id: row.recorded_by, name: row.recorded_by_name, email: row.recorded_by_email },
    approvedBy: row.approved_by,
    approvedAt: row.approved_at,
    transport: row.is_transport
      ? {
          destination: row.destination,
          reason: row.reason,
          transportType: row.transport_type,
          distanceKm: row.distance_km,
          fuelCents: row.fuel_cents,
          tollCents: row.toll_cents,
          parkingCents: row.parking_cents,
          mealAllowanceCents: row.meal_allowance_cents,
          totalTransportCostCents: row.total_cents,
        }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    voidedAt: row.voided_at,
    voidedBy: row.voided_at ? { id: row.voided_by, name: row.voided_by_name ?? 'Unknown' } : null,
    voidReason: row.void_reason,
  };
}

export interface NewExpense {
  branchId: string;
  date: string;
  description: string;
  category: string;
  amountCents: number;
  totalCents: number;
  currency: string;
  paymentMethod: string;
  receiptNumber: string | null;
  notes: string | null;
  contactPhone: string | null;
  transport: {
    destination: string;
    reason: string;
    transportType: string | null;
    distanceKm: number | null;
    fuelCents: number;
    tollCents: number;
    parkingCents: number;
    mealAllowanceCents: number;
  } | null;
  status: ExpenseStatus;
  source: ExpenseSource;
  recordedBy: { id: string; name: string; email: string | null };
  approvedBy: string | null;
  approvedAt: Date | null;
}

export async function insertExpense(q: Queryable, pharmacyId: string, e: NewExpense, at: Date): Promise<string> {
  const t = e.transport;
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO expenses (pharmacy_id, branch_id, expense_date, description, category, amount_cents, total_cents, currency,
                           payment_method, receipt_number, notes, contact_phone, destination, reason, transport_type, distance_km,
                           fuel_cents, toll_cents, parking_cents, meal_allowance_cents, is_transport, status, source,
                           recorded_by, recorded_by_name, recorded_by_email, approved_by, approved_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,
             $24, $25, $26, $27, $28, $29, $29)
     RETURNING id`,
    [
      pharmacyId,
      e.branchId,
      e.date,
      e.description,
      e.category,
      e.amountCents,
      e.totalCents,
      e.currency,
      e.paymentMethod,
      e.receiptNumber,
      e.notes,
      e.contactPhone,
      t?.destination ?? null,
      t?.reason ?? null,
      t?.transportType ?? null,
      t?.distanceKm ?? null,
      t?.fuelCents ?? 0,
      t?.tollCents ?? 0,
      t?.parkingCents ?? 0,
      t?.mealAllowanceCents ?? 0,
      t !== null,
      e.status,
      e.source,
      e.recordedBy.id,
      e.recordedBy.name,
      e.recordedBy.email,
      e.approvedBy,
      e.approvedAt,
      at,
    ],
  );
  return row!.id;
}

export async function findExpense(q: Queryable, pharmacyId: string, id: string): Promise<Expense | undefined> {
  const [row] = await q.query<ExpenseRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE e.pharmacy_id = $1 AND e.id = $2`, [pharmacyId, id]);
  return row ? toExpense(row) : undefined;
}

/** Expenses newest first (by date, then when recorded), with their count and the sum of their totals (voided ones left out of the sum). */
export async function listExpenses(
  q: Queryable,
  pharmacyId: string,
  query: ExpenseListQuery,
  branchIds: readonly string[] | null,
): Promise<{ items: Expense[]; total: number; totalCents: number }> {
  const params: unknown[] = [pharmacyId];
  const where = ['e.pharmacy_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (branchIds) add('e.branch_id = ANY (?::uuid[])', branchIds);
  if (query.branchId) add('e.branch_id = ?', query.branchId);
  if (query.from) add('e.expense_date >= ?', query.from);
  if (query.to) add('e.expense_date <= ?', query.to);
  if (query.category) add('lower(e.category) = lower(?)', query.category.trim());
  if (query.source) add('e.source = ?', query.source);
  const whereSql = where.join(' AND ');
  const [sum] = await q.query<{ n: number; cents: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(e.total_cents) FILTER (WHERE e.voided_at IS NULL), 0)::bigint AS cents FROM expenses e WHERE ${whereSql}`,
    params,
  );
  const rows = await q.query<ExpenseRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE ${whereSql}
      ORDER BY e.expense_date DESC, e.created_at DESC, e.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return { items: rows.map(toExpense), total: sum?.n ?? 0, totalCents: sum?.cents ?? 0 };
}

/** The user stamped on the expense: name (or email) and email. */
export async function findRecorder(q: Queryable, userId: string): Promise<{ name: string; email: string | null } | undefined> {
  const [row] = await q.query<{ name: string | null; email: string | null }>(`SELECT name, email FROM users WHERE id = $1`, [userId]);
  return row ? { name: row.name ?? row.email ?? 'Unknown', email: row.email } : undefined;
}

// ------------------------------------------------------------------------------------------- kept by hand

/** The expense, its row locked for the change (undefined when not the pharmacy's). */
export async function lockExpense(q: Queryable, pharmacyId: string, id: string): Promise<Expense | undefined> {
  const [row] = await q.query<ExpenseRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE e.pharmacy_id = $1 AND e.id = $2 FOR UPDATE OF e`, [pharmacyId, id]);
  return row ? toExpense(row) : undefined;
}

/** Writes the edited values of an expense (its source, status and who recorded it stay). */
export async function updateExpense(q: Queryable, pharmacyId: string, id: string, e: ExpenseValues, userId: string, at: Date): Promise<void> {
  const t = e.transport;
  await q.query(
    `UPDATE expenses SET branch_id = $3, expense_date = $4, description = $5, category = $6, amount_cents = $7, total_cents = $8,
            payment_method = $9, receipt_number = $10, notes = $11, contact_phone = $12, destination = $13, reason = $14,
            transport_type = $15, distance_km = $16, fuel_cents = $17, toll_cents = $18, parking_cents = $19,
            meal_allowance_cents = $20, is_transport = $21, updated_by = $22, updated_at = $23
      WHERE pharmacy_id = $1 AND id = $2`,
    [
      pharmacyId,
      id,
      e.branchId,
      e.date,
      e.description,
      e.category,
      e.amountCents,
      e.totalCents,
      e.paymentMethod,
      e.receiptNumber,
      e.notes,
      e.contactPhone,
      t?.destination ?? null,
      t?.reason ?? null,
      t?.transportType ?? null,
      t?.distanceKm ?? null,
      t?.fuelCents ?? 0,
      t?.tollCents ?? 0,
      t?.parkingCents ?? 0,
      t?.mealAllowanceCents ?? 0,
      t !== null,
      userId,
      at,
    ],
  );
}

export async function markExpenseVoided(q: Queryable, pharmacyId: string, id: string, by: { id: string; name: string }, reason: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE expenses SET voided_at = $3, voided_by = $4, voided_by_name = $5, void_reason = $6, updated_by = $4, updated_at = $3
      WHERE pharmacy_id = $1 AND id = $2`,
    [pharmacyId, id, at, by.id, by.name, reason],
  );
}

// ------------------------------------------------------------------------------------------- the report

export interface ExpenseReportFilter {
  from: string;
  to: string;
  /** null = every branch. */
  branchIds: readonly string[] | null;
  category: string | null;
  paymentMethod: string | null;
  source: string | null;
}

function reportWhere(f: ExpenseReportFilter): { sql: string; params: unknown[] } {
  return {
    sql: `e.pharmacy_id = $1 AND e.expense_date BETWEEN $2::date AND $3::date
      AND ($4::uuid[] IS NULL OR e.branch_id = ANY ($4::uuid[]))
      AND ($5::text IS NULL OR lower(e.category) = lower($5::text))
      AND ($6::text IS NULL OR e.payment_method = $6::text)
      AND ($7::text IS NULL OR e.source = $7::text)`,
    params: [f.from, f.to, f.branchIds, f.category, f.paymentMethod, f.source],
  };
}

interface ExpenseGroupRow {
  expense_date: string;
  branch_id: string;
  branch_name: string;
  category: string;
  payment_method: string;
  source: string;
  is_transport: boolean;
  transport_type: string | null;
  voided: boolean;
  n: number;
  total_cents: number;
  amount_cents: number;
  fuel_cents: number;
  toll_cents: number;
  parking_cents: number;
  meal_allowance_cents: number;
  distance_km: number;
}

/**
 * The range's expenses summed per day, branch, category, payment method, source, transport type and voided flag
 * (read through expenses_date: the pharmacy's rows of the range only). The domain folds them into the report's totals.
 */
export async function findExpenseGroups(q: Queryable, pharmacyId: string, f: ExpenseReportFilter): Promise<ExpenseGroup[]> {
  const where = reportWhere(f);
  const rows = await q.query<ExpenseGroupRow>(
    `SELECT e.expense_date, e.branch_id, b.name AS branch_name, e.category, e.payment_method, e.source, e.is_transport, e.transport_type,
            (e.voided_at IS NOT NULL) AS voided, count(*)::int AS n, sum(e.total_cents)::bigint AS total_cents,
            sum(e.amount_cents)::bigint AS amount_cents, sum(e.fuel_cents)::bigint AS fuel_cents, sum(e.toll_cents)::bigint AS toll_cents,
            sum(e.parking_cents)::bigint AS parking_cents, sum(e.meal_allowance_cents)::bigint AS meal_allowance_cents,
            coalesce(sum(e.distance_km), 0)::numeric AS distance_km
       FROM ${FROM}
      WHERE ${where.sql}
      GROUP BY e.expense_date, e.branch_id, b.name, e.category, e.payment_method, e.source, e.is_transport, e.transport_type, (e.voided_at IS NOT NULL)`,
    [pharmacyId, ...where.params],
  );
  return rows.map((r) => ({
    date: r.expense_date,
    branchId: r.branch_id,
    branchName: r.branch_name,
    category: r.category,
    paymentMethod: r.payment_method,
    source: r.source,
    isTransport: r.is_transport,
    transportType: r.transport_type,
    voided: r.voided,
    count: r.n,
    totalCents: r.total_cents,
    amountCents: r.amount_cents,
    fuelCents: r.fuel_cents,
    tollCents: r.toll_cents,
    parkingCents: r.parking_cents,
    mealAllowanceCents: r.meal_allowance_cents,
    distanceKm: Number(r.distance_km),
  }));
}

/** One page of the range's expenses (voided ones included unless `status` says otherwise), newest first, and how many match. */
export async function findReportExpenses(
  q: Queryable,
  pharmacyId: string,
  f: ExpenseReportFilter & { status: 'all' | 'active' | 'voided' },
  page: { limit: number; offset: number },
): Promise<{ items: Expense[]; total: number }> {
  const where = reportWhere(f);
  const status = f.status === 'active' ? ' AND e.voided_at IS NULL' : f.status === 'voided' ? ' AND e.voided_at IS NOT NULL' : '';
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM expenses e WHERE ${where.sql}${status}`, [pharmacyId, ...where.params]);
  const rows = await q.query<ExpenseRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.sql}${status}
      ORDER BY e.expense_date DESC, e.created_at DESC, e.id LIMIT $8 OFFSET $9`,
    [pharmacyId, ...where.params, page.limit, page.offset],
  );
  return { items: rows.map(toExpense), total: count?.n ?? 0 };
}
