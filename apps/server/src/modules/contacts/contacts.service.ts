import {
  CONTACT_SUGGESTIONS_MAX,
  CONTACT_TYPES,
  creditTermsProblem,
  newClientProblem,
  parseContactCsvRow,
  parseCreditTerms,
  phoneSearchDigits,
  type Contact,
  type ContactImportRowError,
  type ContactListQuery,
  type ContactListResponse,
  type ContactSummary,
  type ContactType,
  type CreateContact,
  type ParsedContactRow,
  type UpdateContact,
} from '@pharmapoint/domain/contacts';
import { normalizePhone } from '@pharmapoint/domain/phone';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import { supplierStatement } from '../supplier-payments/supplier-payments.service.ts';
import {
  customerHistory,
  existingPhones,
  findAnyContact,
  findContact,
  insertContact,
  insertContacts,
  listContacts as findContacts,
  updateContactRow,
} from './contacts.repository.ts';

/**
 * Contacts: customers (the till's clients), suppliers and other contacts. A cashier works with customers through
 * pos:access (the till lists, finds and adds clients, seed 001 section 2); suppliers need the contact or supplier
 * permissions (decision 0023); other contacts the contact permissions. The contacts screen edits and deactivates with
 * contact:update (suppliers also supplier:update) and imports with contact:create (decision 0040).
 */

function mayRead(ctx: RequestContext, type: Contact['type']): boolean {
  if (holds(ctx, 'contact:read')) return true;
  if (type === 'customer') return holds(ctx, 'pos:access') || holds(ctx, 'sales:create');
  return type === 'supplier' && holds(ctx, 'supplier:read');
}

function mayCreate(ctx: RequestContext, type: Contact['type']): boolean {
  if (holds(ctx, 'contact:create')) return true;
  if (type === 'customer') return holds(ctx, 'pos:access') || holds(ctx, 'sales:create');
  return type === 'supplier' && holds(ctx, 'supplier:create');
}

function mayUpdate(ctx: RequestContext, type: Contact['type']): boolean {
  if (holds(ctx, 'contact:update')) return true;
  return type === 'supplier' && holds(ctx, 'supplier:update');
}

const blank = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/** Days a supplier's terms give (their days when sent as a number, else the terms parsed), or null for others. */
function creditDays(type: ContactType, terms: string | null, days: number | null | undefined): number | null {
  if (type !== 'supplier') return null;
  if (terms) return parseCreditTerms(terms);
  return days ?? null;
}

/** GET /api/contacts: by type and search (name or phone); a till search answers at most 5 suggestions (seed 001 section 9). */
export async function listContacts(q: Queryable, ctx: RequestContext, query: ContactListQuery): Promise<ContactListResponse> {
  const types = query.type === 'all' ? CONTACT_TYPES.filter((type) => mayRead(ctx, type)) : [query.type];
  if (types.length === 0 || !types.every((type) => mayRead(ctx, type))) throw new AppError('FORBIDDEN');
  const searching = Boolean(query.search?.trim());
  const limit = searching && query.paged !== 'true' ? Math.min(query.limit, CONTACT_SUGGESTIONS_MAX) : query.limit;
  const { items, total } = await findContacts(q, ctx.pharmacyId, { ...query, limit, types, phoneDigits: query.search ? phoneSearchDigits(query.search) : null });
  return { items, total, limit, offset: query.offset };
}

/** GET /api/contacts/:id (404 for an unknown id or another tenant's, or one of a type the caller may not read). */
export async function getContact(q: Queryable, ctx: RequestContext, id: string): Promise<Contact> {
  const contact = await findAnyContact(q, ctx.pharmacyId, id);
  if (!contact || !mayRead(ctx, contact.type)) throw new AppError('NOT_FOUND');
  return contact;
}

/**
 * POST /api/contacts: name and phone required ('Client name is required', 'Phone number is required'; 'Name is
 * required' for suppliers and others), location and full address too for a DDA cart; the phone stored normalised
 * (digits, a 10-digit 0... number as 254...); a supplier's credit terms parsed into days. The branch is the one named,
 * else the session's.
 */
export async function createContact(q: Queryable, ctx: RequestContext, input: CreateContact): Promise<Contact> {
  if (!mayCreate(ctx, input.type)) throw new AppError('FORBIDDEN');
  const problem = newClientProblem(input) ?? creditTermsProblem(input.creditTerms);
  if (problem) throw new AppError(problem);
  const branchId = input.branchId ? (await resolveBranch(q, ctx, input.branchId)).id : ctx.branchId;
  const creditTerms = input.type === 'supplier' ? blank(input.creditTerms) : null;
  const contact = await insertContact(
    q,
    ctx.pharmacyId,
    ctx.userId,
    {
      type: input.type,
      name: input.name!.trim(),
      phone: normalizePhone(input.phone!),
      email: blank(input.email)?.toLowerCase() ?? null,
      location: blank(input.location),
      address: blank(input.address),
      notes: blank(input.notes),
      creditTerms,
      creditPeriodDays: creditDays(input.type, creditTerms, input.creditPeriodDays),
      branchId,
    },
    ctx.now,
  );
  await audit(q, ctx, 'contact.create', 'contact', contact.id, null, contact);
  return contact;
}

/** PATCH /api/contacts/:id: edit fields, change the type, deactivate or reactivate; audited with before and after. */
export async function updateContact(q: Queryable, ctx: RequestContext, id: string, input: UpdateContact): Promise<Contact> {
  const before = await findAnyContact(q, ctx.pharmacyId, id, true);
  if (!before || !mayRead(ctx, before.type)) throw new AppError('NOT_FOUND');
  const type = input.type ?? before.type;
  if (!mayUpdate(ctx, before.type) || !mayUpdate(ctx, type)) throw new AppError('FORBIDDEN');
  const next = {
    type,
    name: input.name === undefined ? before.name : input.name,
    phone: input.phone === undefined ? before.phone : input.phone,
  };
  const problem = newClientProblem(next) ?? creditTermsProblem(input.creditTerms);
  if (problem) throw new AppError(problem);
  const creditTerms = type !== 'supplier' ? null : input.creditTerms === undefined ? before.creditTerms : blank(input.creditTerms);
  const branchId = input.branchId === undefined ? before.branchId : input.branchId === null ? null : (await resolveBranch(q, ctx, input.branchId)).id;
  const pick = (value: string | null | undefined, old: string | null) => (value === undefined ? old : blank(value));
  const after = await updateContactRow(
    q,
    ctx.pharmacyId,
    ctx.userId,
    {
      ...before,
      type,
      name: next.name!.trim(),
      phone: normalizePhone(next.phone!),
      email: input.email === undefined ? before.email : (blank(input.email)?.toLowerCase() ?? null),
      location: pick(input.location, before.location),
      address: pick(input.address, before.address),
      notes: pick(input.notes, before.notes),
      creditTerms,
      creditPeriodDays: creditDays(type, creditTerms, creditTerms === before.creditTerms ? before.creditPeriodDays : null),
      branchId,
      isActive: input.isActive ?? before.isActive,
    },
    ctx.now,
  );
  const action = before.isActive && !after.isActive ? 'contact.deactivate' : !before.isActive && after.isActive ? 'contact.reactivate' : 'contact.update';
  await audit(q, ctx, action, 'contact', id, before, after);
  return after;
}

/**
 * POST /api/contacts/import: every row checked (the rules of the form, a known type, recognised credit terms, no
 * phone twice for one type in the file or among active contacts of that type); any problem and nothing is written
 * (CONTACT_IMPORT_INVALID with every row's problems), else all rows in one statement.
 */
export async function importContacts(q: Queryable, ctx: RequestContext, input: { defaultType: ContactType; rows: Record<string, string | null>[] }): Promise<{ created: number }> {
  const errors: ContactImportRowError[] = [];
  const parsed: { row: ParsedContactRow; line: number }[] = [];
  input.rows.forEach((raw, index) => {
    const result = parseContactCsvRow(raw, index + 2, input.defaultType);
    errors.push(...result.errors);
    if (!result.contact) return;
    if (!mayCreate(ctx, result.contact.type)) errors.push({ row: index + 2, field: 'type', message: `You may not add contacts of type ${result.contact.type}.` });
    parsed.push({ row: result.contact, line: index + 2 });
  });
  const existing = new Set((await existingPhones(q, ctx.pharmacyId, [...new Set(parsed.map((p) => p.row.phone))])).map((r) => `${r.type}:${r.phone}`));
  const seen = new Map<string, number>();
  for (const { row, line } of parsed) {
    const key = `${row.type}:${row.phone}`;
    if (existing.has(key)) errors.push({ row: line, field: 'phone', message: `A ${row.type} with this phone already exists.` });
    else if (seen.has(key)) errors.push({ row: line, field: 'phone', message: `This phone is already on row ${seen.get(key)}.` });
    else seen.set(key, line);
  }
  if (errors.length > 0) {
    errors.sort((a, b) => a.row - b.row);
    throw new AppError('CONTACT_IMPORT_INVALID', { values: { count: errors.length }, details: { rows: errors.slice(0, 200) } });
  }
  const created = await insertContacts(
    q,
    ctx.pharmacyId,
    ctx.userId,
    ctx.branchId,
    parsed.map(({ row }) => ({ ...row, creditPeriodDays: creditDays(row.type, row.creditTerms, null) })),
    ctx.now,
  );
  await audit(q, ctx, 'contact.import', 'contact', null, null, { created });
  return { created };
}

/** GET /api/contacts/:id/summary: the contact's page (a customer's sales, payments and prescriptions; a supplier's purchases and payments). */
export async function getContactSummary(q: Queryable, ctx: RequestContext, id: string): Promise<ContactSummary> {
  const contact = await getContact(q, ctx, id);
  const empty = { sales: [], salePayments: [], prescriptions: [], purchases: [], supplierPayments: [] };
  if (contact.type === 'customer') {
    const history = holds(ctx, 'sales:read') || holds(ctx, 'contact:read') ? await customerHistory(q, ctx.pharmacyId, id, ctx.visibleBranchIds) : null;
    if (!history) return { contact, balance: { totalCents: 0, paidCents: 0, returnsCents: 0, balanceCents: 0 }, ...empty };
    return {
      contact,
      balance: { totalCents: history.totalCents, paidCents: history.paidCents, returnsCents: 0, balanceCents: history.owedCents },
      ...empty,
      sales: history.sales,
      salePayments: history.salePayments,
      prescriptions: history.prescriptions,
    };
  }
  if (contact.type === 'supplier') {
    const statement = await supplierStatement(q, ctx, contact);
    return { contact, balance: statement.balance, ...empty, purchases: statement.purchases, supplierPayments: statement.payments };
  }
  return { contact, balance: { totalCents: 0, paidCents: 0, returnsCents: 0, balanceCents: 0 }, ...empty };
}

/** A registered, active customer of the pharmacy (for a sale), or 404 NOT_FOUND: unknown, another tenant's, a supplier or deactivated. */
export async function findCustomer(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>, id: string): Promise<Contact> {
  const contact = await findContact(q, ctx.pharmacyId, id);
  if (!contact || contact.type !== 'customer') throw new AppError('NOT_FOUND', { details: { clientId: id } });
  return contact;
}
