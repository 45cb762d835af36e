import { z } from 'zod';
import { ERRORS, fieldMessage, type ErrorCode } from './errors.ts';
import { normalizePhone } from './phone.ts';
import { text } from './text.ts';

/**
 * Contacts: the pharmacy's customers (clients at the till) and suppliers (seed 001 section 3 Client, section 5 New
 * client; DATA-MODEL 'Tenant: selling'). Phones are stored normalised (digits, a 10-digit 0... number as 254...).
 */

export const CONTACT_TYPES = ['customer', 'supplier'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/** Client suggestions at most 5 (seed 001 section 9). */
export const CONTACT_SUGGESTIONS_MAX = 5;

export const CONTACT_LIMITS = { name: 120, phone: 30, email: 254, location: 120, address: 300, notes: 500 } as const;

const optionalText = (max: number, label: string) => text(max, label).nullable().optional();

/**
 * POST /api/contacts. Name and phone are checked by the service with the specification's messages (so a blank name
 * answers 'Client name is required', not a schema sentence); `forDda` asks for location and full address too (the
 * cart holds DDA items).
 */
export const createContactSchema = z.strictObject({
  type: z.enum(CONTACT_TYPES).default('customer'),
  name: text(CONTACT_LIMITS.name, 'The name').optional(),
  phone: text(CONTACT_LIMITS.phone, 'The phone number').optional(),
  email: z.union([z.literal(''), z.email(fieldMessage('required', 'A valid email')).max(CONTACT_LIMITS.email)]).nullable().optional(),
  location: optionalText(CONTACT_LIMITS.location, 'The location'),
  address: optionalText(CONTACT_LIMITS.address, 'The address'),
  notes: optionalText(CONTACT_LIMITS.notes, 'Notes'),
  creditPeriodDays: z.number().int().min(0).max(365).nullable().optional(),
  branchId: z.uuid().nullable().optional(),
  forDda: z.boolean().default(false),
});
export type CreateContactInput = z.input<typeof createContactSchema>;
export type CreateContact = z.output<typeof createContactSchema>;

type NewClientFields = { name?: string | null; phone?: string | null; location?: string | null; address?: string | null; forDda?: boolean };

/** Every rule of seed 001 section 5 (New client) a new client breaks, in the specification's order, with its field. */
export function newClientProblems(input: NewClientFields): { code: ErrorCode; field: 'name' | 'phone' | 'location' | 'address' }[] {
  const problems: { code: ErrorCode; field: 'name' | 'phone' | 'location' | 'address' }[] = [];
  if (!input.name?.trim()) problems.push({ code: 'CONTACT_NAME_REQUIRED', field: 'name' });
  if (!input.phone?.trim() || normalizePhone(input.phone) === '') problems.push({ code: 'CONTACT_PHONE_REQUIRED', field: 'phone' });
  if (input.forDda && !input.location?.trim()) problems.push({ code: 'CONTACT_LOCATION_REQUIRED_DDA', field: 'location' });
  if (input.forDda && !input.address?.trim()) problems.push({ code: 'CONTACT_ADDRESS_REQUIRED_DDA', field: 'address' });
  return problems;
}

/** The first rule of seed 001 section 5 (New client) a new client breaks, or null. */
export function newClientProblem(input: NewClientFields): ErrorCode | null {
  return newClientProblems(input)[0]?.code ?? null;
}

/**
 * The Add New Client dialog of the till as the cashier types it: the rules of `newClientProblems` beside their
 * fields (location and full address only for a DDA cart), and an output that is the request of POST /api/contacts
 * with the phone normalised (a 10-digit 0... number as 254...).
 */
export function newClientFormSchema(forDda: boolean) {
  return z
    .object({
      name: text(CONTACT_LIMITS.name, 'The name'),
      phone: text(CONTACT_LIMITS.phone, 'The phone number'),
      email: z.union([z.literal(''), z.email(fieldMessage('required', 'A valid email')).max(CONTACT_LIMITS.email)]),
      location: text(CONTACT_LIMITS.location, 'The location'),
      address: text(CONTACT_LIMITS.address, 'The address'),
      notes: text(CONTACT_LIMITS.notes, 'Notes'),
    })
    .superRefine((form, ctx) => {
      for (const problem of newClientProblems({ ...form, forDda })) ctx.addIssue({ code: 'custom', path: [problem.field], message: ERRORS[problem.code].message });
    })
    .transform(
      (form): CreateContactInput => ({
        type: 'customer',
        name: form.name,
        phone: normalizePhone(form.phone),
        email: form.email === '' ? null : form.email,
        location: form.location === '' ? null : form.location,
        address: form.address === '' ? null : form.address,
        notes: form.notes === '' ? null : form.notes,
        forDda,
      }),
    );
}
export type NewClientFormValues = z.input<ReturnType<typeof newClientFormSchema>>;

export const contactSchema = z.object({
  id: z.string(),
  type: z.enum(CONTACT_TYPES),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  location: z.string().nullable(),
  address: z.string().nullable(),
  notes: z.string().nullable(),
  creditPeriodDays: z.number().int().nullable(),
  branchId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type Contact = z.infer<typeof contactSchema>;

/** GET /api/contacts: by type, a search over name and phone (at most 5 suggestions when searching), paged. */
export const contactListQuerySchema = z.strictObject({
  type: z.enum(CONTACT_TYPES).default('customer'),
  search: text(100, 'The search').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ContactListQueryInput = z.input<typeof contactListQuerySchema>;
export type ContactListQuery = z.output<typeof contactListQuerySchema>;

export const contactListResponseSchema = z.object({
  items: z.array(contactSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ContactListResponse = z.infer<typeof contactListResponseSchema>;

export const contactIdParamsSchema = z.strictObject({ id: z.uuid() });

/** The digits a phone search matches: the search's digits normalised like a stored phone (0712... finds 254712...). */
export function phoneSearchDigits(search: string): string | null {
  const digits = search.replace(/\D/g, '');
  if (digits.length < 3) return null;
  return digits.startsWith('0') ? digits.slice(1) : digits;
}
