import type { Queryable } from '../../db/database.ts';

/** The SQL of refill reminders: refill lines of sales to a registered client (sale_items, migration 0016). */

export interface RefillLineRow {
  saleId: string;
  line: number;
  invoiceNumber: string;
  saleDate: string;
  branchId: string;
  branchName: string;
  clientId: string;
  clientName: string;
  clientPhone: string | null;
  productId: string;
  productName: string;
  refillDays: number;
  refillDate: string;
  completedAt: string | null;
}

const COLUMNS = `si.sale_id AS "saleId", si.line, s.invoice_number AS "invoiceNumber", s.sale_date AS "saleDate", s.branch_id AS "branchId",
       b.name AS "branchName", s.client_id AS "clientId", coalesce(c.name, s.client_name) AS "clientName",
       coalesce(c.phone, s.client_phone) AS "clientPhone", si.product_id AS "productId", si.name AS "productName",
       si.refill_days AS "refillDays", si.refill_due_date AS "refillDate", si.refill_completed_at AS "completedAt"`;
const FROM = `sale_items si
  JOIN sales s ON s.pharmacy_id = si.pharmacy_id AND s.id = si.sale_id
  JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id
  LEFT JOIN contacts c ON c.pharmacy_id = s.pharmacy_id AND c.id = s.client_id`;

/**
 * The open refill lines of the filters, due from `fromDate` to `toDate` (either open), soonest first. The list merges
 * and pages them in memory: a pharmacy's open refills are few, and a merge must see a group's every line.
 */
export async function findOpenRefillLines(
  q: Queryable,
  pharmacyId: string,
  filters: { branchIds: readonly string[] | null; branchId?: string; clientId?: string; search?: string; fromDate: string | null; toDate: string | null },
): Promise<RefillLineRow[]> {
  const params: unknown[] = [pharmacyId];
  const where = ['si.pharmacy_id = $1', 'si.needs_refill', 'si.refill_completed_at IS NULL', 's.client_id IS NOT NULL'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (filters.branchIds) add('s.branch_id = ANY (?::uuid[])', filters.branchIds);
  if (filters.branchId) add('s.branch_id = ?::uuid', filters.branchId);
  if (filters.clientId) add('s.client_id = ?::uuid', filters.clientId);
  if (filters.fromDate) add('si.refill_due_date >= ?::date', filters.fromDate);
  if (filters.toDate) add('si.refill_due_date <= ?::date', filters.toDate);
  if (filters.search) {
    add(
      `(coalesce(c.name, s.client_name) ILIKE ? OR coalesce(c.phone, s.client_phone, '') ILIKE ? OR si.name ILIKE ? OR s.invoice_number ILIKE ?)`,
      `%${filters.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`,
    );
  }
  return q.query<RefillLineRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.join(' AND ')} ORDER BY si.refill_due_date, s.invoice_number, si.line`, params);
}

/** One refill line of the pharmacy, locked for its completion (null: no such refill line). */
export async function lockRefillLine(q: Queryable, pharmacyId: string, saleId: string, line: number): Promise<RefillLineRow | null> {
  const [row] = await q.query<RefillLineRow>(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE si.pharmacy_id = $1 AND si.sale_id = $2 AND si.line = $3 AND si.needs_refill AND s.client_id IS NOT NULL
        FOR UPDATE OF si`,
    [pharmacyId, saleId, line],
  );
  return row ?? null;
}

/** The open refill lines of one client and product, locked (the merge of a completion). */
export async function lockOpenRefillLinesOf(q: Queryable, pharmacyId: string, clientId: string, productId: string, branchIds: readonly string[] | null): Promise<RefillLineRow[]> {
  return q.query<RefillLineRow>(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE si.pharmacy_id = $1 AND s.client_id = $2 AND si.product_id = $3 AND si.needs_refill AND si.refill_completed_at IS NULL
        AND ($4::uuid[] IS NULL OR s.branch_id = ANY ($4::uuid[]))
      ORDER BY si.refill_due_date, s.invoice_number, si.line
        FOR UPDATE OF si`,
    [pharmacyId, clientId, productId, branchIds],
  );
}

export async function markRefillLinesCompleted(q: Queryable, pharmacyId: string, lines: readonly { saleId: string; line: number }[], at: Date): Promise<void> {
  await q.query(
    `UPDATE sale_items si SET refill_completed_at = $4
       FROM unnest($2::uuid[], $3::int[]) AS done (sale_id, line)
      WHERE si.pharmacy_id = $1 AND si.sale_id = done.sale_id AND si.line = done.line AND si.refill_completed_at IS NULL`,
    [pharmacyId, lines.map((l) => l.saleId), lines.map((l) => l.line), at],
  );
}

/** The pharmacy's registered name (the reminder's signature when the settings name none). */
export async function findPharmacyName(q: Queryable, pharmacyId: string): Promise<string | null> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row?.name ?? null;
}
