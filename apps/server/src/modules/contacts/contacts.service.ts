import {
  CONTACT_SUGGESTIONS_MAX,
  newClientProblem,
  phoneSearchDigits,
  type Contact,
  type ContactListQuery,
  type ContactListResponse,
  type CreateContact,
} from '@pharmapoint/domain/contacts';
import { normalizePhone } from '@pharmapoint/domain/phone';
import type { Queryable } from '../../db/database.ts';
import { holds } from '../../platform/access.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import { findContact, insertContact, listContacts as findContacts } from './contacts.repository.ts';

/**
 * Contacts: customers (the till's clients) and suppliers. A cashier works with customers through pos:access (the till
 * lists, finds and adds clients, seed 001 section 2); suppliers need the contact or supplier permissions (decision 0023).
 */

function mayRead(ctx: RequestContext, type: Contact['type']): boolean {
  if (holds(ctx, 'contact:read')) return true;
  return type === 'customer' ? holds(ctx, 'pos:access') || holds(ctx, 'sales:create') : holds(ctx, 'supplier:read');
}

function mayCreate(ctx: RequestContext, type: Contact['type']): boolean {
  if (holds(ctx, 'contact:create')) return true;
  return type === 'customer' ? holds(ctx, 'pos:access') || holds(ctx, 'sales:create') : holds(ctx, 'supplier:create');
}

/** GET /api/contacts: by type and search (name or phone); a search answers at most 5 suggestions (seed 001 section 9). */
export async function listContacts(q: Queryable, ctx: RequestContext, query: ContactListQuery): Promise<ContactListResponse> {
  if (!mayRead(ctx, query.type)) throw new AppError('FORBIDDEN');
  const searching = Boolean(query.search?.trim());
  const limit = searching ? Math.min(query.limit, CONTACT_SUGGESTIONS_MAX) : query.limit;
  const { items, total } = await findContacts(q, ctx.pharmacyId, { ...query, limit, phoneDigits: query.search ? phoneSearchDigits(query.search) : null });
  return { items, total, limit, offset: query.offset };
}

/** GET /api/contacts/:id (404 for an unknown id or another tenant's, or one of a type the caller may not read). */
export async function getContact(q: Queryable, ctx: RequestContext, id: string): Promise<Contact> {
  const contact = await findContact(q, ctx.pharmacyId, id);
  if (!contact || !mayRead(ctx, contact.type)) throw new AppError('NOT_FOUND');
  return contact;
}

/**
 * POST /api/contacts: name and phone required ('Client name is required', 'Phone number is required'), location and
 * full address too for a DDA cart; the phone stored normalised (digits, a 10-digit 0... number as 254...). The
 * client's branch is the one named, else the session's.
 */
export async function createContact(q: Queryable, ctx: RequestContext, input: CreateContact): Promise<Contact> {
  if (!mayCreate(ctx, input.type)) throw new AppError('FORBIDDEN');
  const problem = newClientProblem(input);
  if (problem) throw new AppError(problem);
  const branchId = input.branchId ? (await resolveBranch(q, ctx, input.branchId)).id : ctx.branchId;
  const blank = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);
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
      creditPeriodDays: input.creditPeriodDays ?? null,
      branchId,
    },
    ctx.now,
  );
  await audit(q, ctx, 'contact.create', 'contact', contact.id, null, contact);
  return contact;
}

/** A registered customer of the pharmacy (for a sale), or 404 NOT_FOUND: unknown, another tenant's, or a supplier. */
export async function findCustomer(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId'>, id: string): Promise<Contact> {
  const contact = await findContact(q, ctx.pharmacyId, id);
  if (!contact || contact.type !== 'customer') throw new AppError('NOT_FOUND', { details: { clientId: id } });
  return contact;
}
