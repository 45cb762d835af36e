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
}

const COLUMNS = `e.id, e.branch_id, b.name AS branch_name, e.expense_date, e.description, e.category, e.amount_cents, e.total_cents,
  e.currency, e.payment_method, e.receipt_number, e.notes, e.contact_phone, e.destination, e.reason, e.transport_type, e.distance_km,
  e.fuel_cents, e.toll_cents, e.parking_cents, e.meal_allowance_cents, e.is_transport, e.status, e.source, e.entry_method,
  e.recorded_by, e.recorded_by_name, e.recorded_by_email, e.approved_by, e.approved_at, e.created_at`;
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

/** Expenses newest first (by date, then when recorded), with their count and the sum of their totals. */
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
    `SELECT count(*)::int AS n, coalesce(sum(e.total_cents), 0)::bigint AS cents FROM expenses e WHERE ${whereSql}`,
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
