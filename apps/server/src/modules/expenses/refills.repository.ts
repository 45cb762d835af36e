import type { RefillReminder, RefillReminderListQuery } from '@pharmapoint/domain/refills';
import { refillStatus } from '@pharmapoint/domain/refills';
import type { Queryable } from '../../db/database.ts';

/** The SQL of refill reminders: open refill lines of sales to a registered client (sale_items, migration 0016). */

interface RefillRow {
  sale_id: string;
  line: number;
  invoice_number: string;
  sale_date: string;
  branch_id: string;
  branch_name: string;
  client_id: string;
  client_name: string;
  client_phone: string | null;
  product_id: string;
  name: string;
  refill_days: number;
  refill_due_date: string;
  days_left: number;
}

export async function listRefillReminders(
  q: Queryable,
  pharmacyId: string,
  query: RefillReminderListQuery,
  today: string,
  upcomingDays: number,
  branchIds: readonly string[] | null,
): Promise<{ items: RefillReminder[]; total: number }> {
  const params: unknown[] = [pharmacyId, today];
  // $2 (today) is named in every query, so the count's parameters match whatever filter is chosen.
  const where = ['si.pharmacy_id = $1', '$2::date IS NOT NULL', 'si.needs_refill', 'si.refill_completed_at IS NULL', 's.client_id IS NOT NULL'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (branchIds) add('s.branch_id = ANY (?::uuid[])', branchIds);
  if (query.branchId) add('s.branch_id = ?', query.branchId);
  if (query.clientId) add('s.client_id = ?', query.clientId);
  if (query.due === 'overdue') where.push('si.refill_due_date < $2::date');
  if (query.due === 'today') where.push('si.refill_due_date = $2::date');
  if (query.due === 'upcoming') add('si.refill_due_date > $2::date AND si.refill_due_date <= $2::date + ?::int', upcomingDays);
  if (query.due === 'window') add('si.refill_due_date <= $2::date + ?::int', upcomingDays);
  const from = `sale_items si JOIN sales s ON s.pharmacy_id = si.pharmacy_id AND s.id = si.sale_id`;
  const whereSql = where.join(' AND ');
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from} WHERE ${whereSql}`, params);
  const rows = await q.query<RefillRow>(
    `SELECT si.sale_id, si.line, s.invoice_number, s.sale_date, s.branch_id, b.name AS branch_name, s.client_id,
            coalesce(c.name, s.client_name) AS client_name, coalesce(c.phone, s.client_phone) AS client_phone,
            si.product_id, si.name, si.refill_days, si.refill_due_date, (si.refill_due_date - $2::date) AS days_left
       FROM ${from}
       JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id
       LEFT JOIN contacts c ON c.pharmacy_id = s.pharmacy_id AND c.id = s.client_id
      WHERE ${whereSql}
      ORDER BY si.refill_due_date, s.invoice_number, si.line
      LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return {
    items: rows.map((r) => ({
      saleId: r.sale_id,
      line: r.line,
      invoiceNumber: r.invoice_number,
      saleDate: r.sale_date,
      branchId: r.branch_id,
      branchName: r.branch_name,
      client: { id: r.client_id, name: r.client_name, phone: r.client_phone },
      productId: r.product_id,
      productName: r.name,
      refillDays: r.refill_days,
      refillDate: r.refill_due_date,
      daysLeft: r.days_left,
      status: refillStatus(r.days_left),
    })),
    total: count?.n ?? 0,
  };
}
