import type { Contact, ContactListQuery, ContactType } from '@pharmapoint/domain/contacts';
import type { Queryable } from '../../db/database.ts';
import { likeEscape } from '../../db/sql.ts';

/** All SQL of contacts (customers and suppliers). */

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
  branch_id: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
}

const COLUMNS = `id, type, name, phone, email, location, address, notes, credit_period_days, branch_id, created_at, updated_at, created_by, updated_by`;

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
    branchId: row.branch_id,
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
  branchId: string | null;
}

export async function insertContact(q: Queryable, pharmacyId: string, userId: string, contact: NewContact, at: Date): Promise<Contact> {
  const [row] = await q.query<ContactRow>(
    `INSERT INTO contacts (pharmacy_id, type, name, phone, email, location, address, notes, credit_period_days, branch_id,
                           created_by, updated_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $12)
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
      contact.branchId,
      userId,
      at,
    ],
  );
  return toContact(row!);
}

export async function findContact(q: Queryable, pharmacyId: string, id: string): Promise<Contact | undefined> {
  const [row] = await q.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE pharmacy_id = $1 AND id = $2 AND is_active`, [pharmacyId, id]);
  return row ? toContact(row) : undefined;
}

/**
 * Contacts of a type, by name; with a search, those whose name contains it or whose phone contains its digits
 * (names starting with the search first).
 */
export async function listContacts(
  q: Queryable,
  pharmacyId: string,
  query: ContactListQuery & { phoneDigits: string | null },
): Promise<{ items: Contact[]; total: number }> {
  const search = query.search?.trim() ? query.search.trim().toLowerCase() : null;
  const params: unknown[] = [pharmacyId, query.type];
  let where = `pharmacy_id = $1 AND type = $2 AND is_active`;
  if (search) {
    params.push(`%${likeEscape(search)}%`, query.phoneDigits ? `%${likeEscape(query.phoneDigits)}%` : null);
    where += ` AND (lower(name) LIKE $3 OR ($4::text IS NOT NULL AND phone LIKE $4::text))`;
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
