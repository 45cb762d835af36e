import type { Contact, ContactListQuery, ContactSummary, ContactType, ParsedContactRow } from '@pharmapoint/domain/contacts';
import type { Queryable } from '../../db/database.ts';
import { likeEscape } from '../../db/sql.ts';

/** All SQL of contacts (customers, suppliers and other contacts) and a customer's history on its page. */

interface ContactRow {
  id: string;
  type: ContactType;
  name: string;
  phone: string | null;
  email: string | null;
  location: string | null;
  address: string | null;
  notes: string | null;
  credit_period_days: number | null;
  credit_terms: string | null;
  branch_id: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
}

const COLUMNS = `id, type, name, phone, email, location, address, notes, credit_period_days, credit_terms, branch_id, is_active, created_at, updated_at, created_by, updated_by`;

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    phone: row.phone,
    email: row.email,
    location: row.location,
    address: row.address,
    notes: row.notes,
    creditPeriodDays: row.credit_period_days,
    creditTerms: row.credit_terms,
    branchId: row.branch_id,
    isActive: row.is_active,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
  };
}

export interface NewContact {
  type: ContactType;
  name: string;
  phone: string | null;
  email: string | null;
  location: string | null;
  address: string | null;
  notes: string | null;
  creditPeriodDays: number | null;
  creditTerms?: string | null;
  branchId: string | null;
  isActive?: boolean;
}

export async function insertContact(q: Queryable, pharmacyId: string, userId: string, contact: NewContact, at: Date): Promise<Contact> {
  const [row] = await q.query<ContactRow>(
    `INSERT INTO contacts (pharmacy_id, type, name, phone, email, location, address, notes, credit_period_days, credit_terms, branch_id,
                           is_active, created_by, updated_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $14)
     RETURNING ${COLUMNS}`,
    [
      pharmacyId,
      contact.type,
      contact.name,
      contact.phone,
      contact.email,
      contact.location,
      contact.address,
      contact.notes,
      contact.creditPeriodDays,
      contact.creditTerms ?? null,
      contact.branchId,
      contact.isActive ?? true,
      userId,
      at,
    ],
  );
  return toContact(row!);
}

/** Many contacts in one statement (a CSV import): the number written. */
export async function insertContacts(q: Queryable, pharmacyId: string, userId: string, branchId: string | null, rows: (ParsedContactRow & { creditPeriodDays: number | null })[], at: Date): Promise<number> {
  const written = await q.query<{ id: string }>(
    `INSERT INTO contacts (pharmacy_id, type, name, phone, email, location, address, notes, credit_terms, credit_period_days, is_active, branch_id,
                           created_by, updated_by, created_at, updated_at)
     SELECT $1, r.type, r.name, r.phone, r.email, r.location, r.address, r.notes, r.credit_terms, r.credit_period_days, r.is_active, $2, $3, $3, $4, $4
       FROM jsonb_to_recordset($5::jsonb) AS r(type text, name text, phone text, email text, location text, address text, notes text,
                                               credit_terms text, credit_period_days integer, is_active boolean)
     RETURNING id`,
    [
      pharmacyId,
      branchId,
      userId,
      at,
      JSON.stringify(
        rows.map((r) => ({
          type: r.type,
          name: r.name,
          phone: r.phone,
          email: r.email,
          location: r.location,
          address: r.address,
          notes: r.notes,
          credit_terms: r.creditTerms,
          credit_period_days: r.creditPeriodDays,
          is_active: r.isActive,
        })),
      ),
    ],
  );
  return written.length;
}

/** The phones already held by active contacts of each type (for an import's duplicate check). */
export async function existingPhones(q: Queryable, pharmacyId: string, phones: string[]): Promise<{ type: ContactType; phone: string }[]> {
  if (phones.length === 0) return [];
  return q.query<{ type: ContactType; phone: string }>(`SELECT DISTINCT type, phone FROM contacts WHERE pharmacy_id = $1 AND is_active AND phone = ANY($2::text[])`, [pharmacyId, phones]);
}

/** An active contact (what the till and a sale may use). */
export async function findContact(q: Queryable, pharmacyId: string, id: string): Promise<Contact | undefined> {
  const [row] = await q.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE pharmacy_id = $1 AND id = $2 AND is_active`, [pharmacyId, id]);
  return row ? toContact(row) : undefined;
}

/** A contact, active or not (the contacts screen); `forUpdate` locks its row for the transaction. */
export async function findAnyContact(q: Queryable, pharmacyId: string, id: string, forUpdate = false): Promise<Contact | undefined> {
  const [row] = await q.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE pharmacy_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [pharmacyId, id]);
  return row ? toContact(row) : undefined;
}

export async function updateContactRow(q: Queryable, pharmacyId: string, userId: string, contact: Contact, at: Date): Promise<Contact> {
  const [row] = await q.query<ContactRow>(
    `UPDATE contacts SET type = $3, name = $4, phone = $5, email = $6, location = $7, address = $8, notes = $9, credit_terms = $10,
            credit_period_days = $11, branch_id = $12, is_active = $13, updated_by = $14, updated_at = $15
      WHERE pharmacy_id = $1 AND id = $2
      RETURNING ${COLUMNS}`,
    [
      pharmacyId,
      contact.id,
      contact.type,
      contact.name,
      contact.phone,
      contact.email,
      contact.location,
      contact.address,
      contact.notes,
      contact.creditTerms,
      contact.creditPeriodDays,
      contact.branchId,
      contact.isActive,
      userId,
      at,
    ],
  );
  return toContact(row!);
}

/**
 * Contacts of a type (or all types), by name; with a search, those whose name, email or location contains it or whose
 * phone contains its digits (names starting with the search first).
 */
export async function listContacts(
  q: Queryable,
  pharmacyId: string,
  query: ContactListQuery & { phoneDigits: string | null; types: ContactType[] },
): Promise<{ items: Contact[]; total: number }> {
  const search = query.search?.trim() ? query.search.trim().toLowerCase() : null;
  const params: unknown[] = [pharmacyId, query.types];
  let where = `pharmacy_id = $1 AND type = ANY($2::text[])`;
  if (query.status !== 'all') where += query.status === 'active' ? ' AND is_active' : ' AND NOT is_active';
  if (search) {
    params.push(`%${likeEscape(search)}%`, query.phoneDigits ? `%${likeEscape(query.phoneDigits)}%` : null);
    where += ` AND (lower(name) LIKE $3 OR ($4::text IS NOT NULL AND phone LIKE $4::text)${query.paged === 'true' ? ' OR lower(email) LIKE $3 OR lower(location) LIKE $3' : ''})`;
  }
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE ${where}`, params);
  const rowParams = [...params, query.limit, query.offset];
  const n = rowParams.length;
  let order = `lower(name), id`;
  if (search) {
    rowParams.push(`${likeEscape(search)}%`);
    order = `(lower(name) LIKE $${n + 1}) DESC, lower(name), id`;
  }
  const rows = await q.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE ${where} ORDER BY ${order} LIMIT $${n - 1} OFFSET $${n}`, rowParams);
  return { items: rows.map(toContact), total: count?.n ?? 0 };
}

const HISTORY_LIMIT = 100;

/** A customer's sales (newest first), the payments of those sales, the prescriptions on them and what is owed. */
export async function customerHistory(
  q: Queryable,
  pharmacyId: string,
  clientId: string,
  branchIds: readonly string[] | null,
): Promise<Pick<ContactSummary, 'sales' | 'salePayments' | 'prescriptions'> & { owedCents: number; totalCents: number; paidCents: number }> {
  const params = [pharmacyId, clientId, branchIds];
  const branchFilter = `($3::uuid[] IS NULL OR s.branch_id = ANY($3::uuid[]))`;
  const sales = await q.query<{
    id: string;
    invoice_number: string;
    sale_date: string;
    branch_name: string | null;
    total_cents: string;
    amount_paid_cents: string;
    balance_due_cents: string;
    payment_method: string;
    status: string;
    item_count: number;
  }>(
    `SELECT s.id, s.invoice_number, to_char(s.sale_date, 'YYYY-MM-DD') AS sale_date, b.name AS branch_name, s.total_cents, s.amount_paid_cents,
            s.balance_due_cents, s.payment_method, s.status,
            (SELECT count(*)::int FROM sale_items i WHERE i.pharmacy_id = s.pharmacy_id AND i.sale_id = s.id) AS item_count
       FROM sales s LEFT JOIN branches b ON b.pharmacy_id = s.pharmacy_id AND b.id = s.branch_id
      WHERE s.pharmacy_id = $1 AND s.client_id = $2 AND ${branchFilter}
      ORDER BY s.created_at DESC, s.id LIMIT ${HISTORY_LIMIT}`,
    params,
  );
  const [totals] = await q.query<{ total: string; paid: string; owed: string }>(
    `SELECT coalesce(sum(s.total_cents), 0)::bigint AS total, coalesce(sum(s.total_cents - s.balance_due_cents), 0)::bigint AS paid,
            coalesce(sum(s.balance_due_cents), 0)::bigint AS owed
       FROM sales s WHERE s.pharmacy_id = $1 AND s.client_id = $2 AND s.status <> 'voided' AND ${branchFilter}`,
    params,
  );
  const payments = await q.query<{ sale_id: string; invoice_number: string; at: string; method: string; amount_cents: string; reference: string | null }>(
    `SELECT p.sale_id, s.invoice_number, p.at, p.method, p.amount_cents, p.reference
       FROM sale_payments p JOIN sales s ON s.pharmacy_id = p.pharmacy_id AND s.id = p.sale_id
      WHERE p.pharmacy_id = $1 AND s.client_id = $2 AND ${branchFilter}
      ORDER BY p.at DESC, p.sale_id, p.position LIMIT ${HISTORY_LIMIT}`,
    params,
  );
  const prescriptions = await q.query<{
    sale_id: string;
    invoice_number: string;
    sale_date: string;
    name: string;
    quantity: number;
    doctor: string | null;
    hospital: string | null;
    number: string | null;
  }>(
    `SELECT i.sale_id, s.invoice_number, to_char(s.sale_date, 'YYYY-MM-DD') AS sale_date, i.name, i.quantity,
            i.prescription->>'doctorName' AS doctor, i.prescription->>'hospitalName' AS hospital, i.prescription->>'prescriptionNumber' AS number
       FROM sale_items i JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
      WHERE i.pharmacy_id = $1 AND s.client_id = $2 AND i.prescription IS NOT NULL AND ${branchFilter}
      ORDER BY s.created_at DESC, i.line LIMIT ${HISTORY_LIMIT}`,
    params,
  );
  return {
    sales: sales.map((s) => ({
      id: s.id,
      invoiceNumber: s.invoice_number,
      date: s.sale_date,
      branchName: s.branch_name,
      totalCents: Number(s.total_cents),
      amountPaidCents: Number(s.amount_paid_cents),
      balanceDueCents: Number(s.balance_due_cents),
      paymentMethod: s.payment_method,
      status: s.status,
      itemCount: s.item_count,
    })),
    salePayments: payments.map((p) => ({
      saleId: p.sale_id,
      invoiceNumber: p.invoice_number,
      at: new Date(p.at).toISOString(),
      method: p.method,
      amountCents: Number(p.amount_cents),
      reference: p.reference,
    })),
    prescriptions: prescriptions.map((p) => ({
      saleId: p.sale_id,
      invoiceNumber: p.invoice_number,
      date: p.sale_date,
      productName: p.name,
      quantity: p.quantity,
      doctorName: p.doctor,
      hospitalName: p.hospital,
      prescriptionNumber: p.number,
    })),
    totalCents: Number(totals?.total ?? 0),
    paidCents: Number(totals?.paid ?? 0),
    owedCents: Number(totals?.owed ?? 0),
  };
}
