import { z } from 'zod';
import { ERRORS, fieldMessage, type ErrorCode } from './errors.ts';
import { normalizePhone } from './phone.ts';
import { supplierInvoiceSchema, supplierPaymentSchema } from './supplier-payments.ts';
import { isStorableText, text, UNSTORABLE_TEXT_MESSAGE } from './text.ts';

/**
 * Contacts: the pharmacy's customers (clients at the till) and suppliers (seed 001 section 3 Client, section 5 New
 * client; DATA-MODEL 'Tenant: selling'). Phones are stored normalised (digits, a 10-digit 0... number as 254...).
 */

/** Customers, suppliers and other contacts (doctors, insurers, ...: seed 002 'type (supplier among others)'; decision 0040). */
export const CONTACT_TYPES = ['customer', 'supplier', 'other'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/** The default credit period of a supplier, and what a month counts (seed 002 sections 5 and 9). */
export const DEFAULT_CREDIT_DAYS = 30;
export const DAYS_PER_MONTH = 30;
export const CREDIT_DAYS_MAX = 365;

/**
 * A supplier's credit terms as days (seed 002 section 5, Supplier report): 'N days', 'Nd', 'N months' (times 30),
 * 'Nm', 'net N' or a bare number; anything else (or nothing) is the default, 30 days. Case and spaces do not matter.
 */
export function parseCreditTerms(terms: string | number | null | undefined, fallback: number = DEFAULT_CREDIT_DAYS): number {
  if (typeof terms === 'number') return Number.isInteger(terms) && terms >= 0 ? terms : fallback;
  const value = (terms ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  let match = /^(\d+)\s*(?:days?|d)$/.exec(value);
  if (match) return Number(match[1]);
  match = /^(\d+)\s*(?:months?|m)$/.exec(value);
  if (match) return Number(match[1]) * DAYS_PER_MONTH;
  match = /^net\s*(\d+)(?:\s*(?:days?|d))?$/.exec(value);
  if (match) return Number(match[1]);
  match = /^(\d+)$/.exec(value);
  if (match) return Number(match[1]);
  return fallback;
}

/** Terms the parser recognises (not just the default): a form says so beside the field. */
export function isRecognisedCreditTerms(terms: string): boolean {
  return parseCreditTerms(terms, -1) !== -1;
}

/** Client suggestions at most 5 (seed 001 section 9). */
export const CONTACT_SUGGESTIONS_MAX = 5;

export const CONTACT_LIMITS = { name: 120, phone: 30, email: 254, location: 120, address: 300, notes: 500, creditTerms: 40 } as const;

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
  /** A supplier's credit terms as people write them ('30 days', 'net 45', '2 months'); parsed into creditPeriodDays. */
  creditTerms: optionalText(CONTACT_LIMITS.creditTerms, 'Credit terms'),
  branchId: z.uuid().nullable().optional(),
  forDda: z.boolean().default(false),
});
export type CreateContactInput = z.input<typeof createContactSchema>;
export type CreateContact = z.output<typeof createContactSchema>;

type NewClientFields = { type?: ContactType; name?: string | null; phone?: string | null; location?: string | null; address?: string | null; forDda?: boolean };

/** Every rule of seed 001 section 5 (New client) a new client breaks, in the specification's order, with its field. */
export function newClientProblems(input: NewClientFields): { code: ErrorCode; field: 'name' | 'phone' | 'location' | 'address' }[] {
  const problems: { code: ErrorCode; field: 'name' | 'phone' | 'location' | 'address' }[] = [];
  if (!input.name?.trim()) problems.push({ code: !input.type || input.type === 'customer' ? 'CONTACT_NAME_REQUIRED' : 'CONTACT_NAME_MISSING', field: 'name' });
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
  creditTerms: z.string().nullable(),
  branchId: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type Contact = z.infer<typeof contactSchema>;

/** GET /api/contacts: by type, a search over name and phone (at most 5 suggestions when searching), paged. */
export const CONTACT_STATUSES = ['active', 'inactive', 'all'] as const;

export const contactListQuerySchema = z.strictObject({
  type: z.enum([...CONTACT_TYPES, 'all']).default('customer'),
  search: text(100, 'The search').optional(),
  /** Active contacts unless asked (the contacts screen shows deactivated ones on request). */
  status: z.enum(CONTACT_STATUSES).default('active'),
  /** 'true': the contacts screen's paged list (a search is not capped at the 5 suggestions of the till). */
  paged: z.enum(['true', 'false']).default('false'),
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

/**
 * The digits a phone search matches: the search's digits normalised like a stored phone (0712... finds 254712...).
 * Only a search written as a phone number is one (digits, spaces, +, -, dots and brackets): the digits inside a name
 * or a note ('Ward 4, bed 32') are not a phone, and matched any phone that happened to contain them.
 */
export function phoneSearchDigits(search: string): string | null {
  if (!/^[\d\s+().-]+$/.test(search)) return null;
  const digits = search.replace(/\D/g, '');
  if (digits.length < 3) return null;
  return digits.startsWith('0') ? digits.slice(1) : digits;
}

/** The credit period a contact's terms give (its stored days, else its terms parsed, else the default). */
export function contactCreditDays(contact: Pick<Contact, 'creditPeriodDays' | 'creditTerms'>, fallback: number = DEFAULT_CREDIT_DAYS): number {
  if (contact.creditPeriodDays !== null && contact.creditPeriodDays !== undefined) return contact.creditPeriodDays;
  return parseCreditTerms(contact.creditTerms, fallback);
}

/**
 * PATCH /api/contacts/:id: the fields to change (name and phone cannot be blanked), and isActive to deactivate or
 * reactivate. A deactivated contact keeps its history; the till and new purchases no longer offer it.
 */
export const updateContactSchema = z.strictObject({
  type: z.enum(CONTACT_TYPES).optional(),
  name: text(CONTACT_LIMITS.name, 'The name').optional(),
  phone: text(CONTACT_LIMITS.phone, 'The phone number').optional(),
  email: z.union([z.literal(''), z.email(fieldMessage('required', 'A valid email')).max(CONTACT_LIMITS.email)]).nullable().optional(),
  location: optionalText(CONTACT_LIMITS.location, 'The location'),
  address: optionalText(CONTACT_LIMITS.address, 'The address'),
  notes: optionalText(CONTACT_LIMITS.notes, 'Notes'),
  creditTerms: optionalText(CONTACT_LIMITS.creditTerms, 'Credit terms'),
  branchId: z.uuid().nullable().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateContactInput = z.input<typeof updateContactSchema>;
export type UpdateContact = z.output<typeof updateContactSchema>;

/** The credit terms a request may store: empty, or terms the parser recognises within a year. */
export function creditTermsProblem(terms: string | null | undefined): ErrorCode | null {
  if (!terms?.trim()) return null;
  const days = parseCreditTerms(terms, -1);
  if (days === -1) return 'CONTACT_CREDIT_TERMS_UNKNOWN';
  if (days > CREDIT_DAYS_MAX) return 'CONTACT_CREDIT_TERMS_TOO_LONG';
  return null;
}

/**
 * The contacts screen's add/edit form: every field as typed (text), the rules of `newClientProblems` and the credit
 * terms rule beside their fields; the output is the body of POST /api/contacts (PATCH takes the same fields).
 */
export const contactFormSchema = z
  .object({
    type: z.enum(CONTACT_TYPES),
    name: text(CONTACT_LIMITS.name, 'The name'),
    phone: text(CONTACT_LIMITS.phone, 'The phone number'),
    email: z.union([z.literal(''), z.email(fieldMessage('required', 'A valid email')).max(CONTACT_LIMITS.email)]),
    location: text(CONTACT_LIMITS.location, 'The location'),
    address: text(CONTACT_LIMITS.address, 'The address'),
    notes: text(CONTACT_LIMITS.notes, 'Notes'),
    creditTerms: text(CONTACT_LIMITS.creditTerms, 'Credit terms'),
  })
  .superRefine((form, ctx) => {
    for (const problem of newClientProblems(form)) ctx.addIssue({ code: 'custom', path: [problem.field], message: ERRORS[problem.code].message });
    const terms = creditTermsProblem(form.creditTerms);
    if (terms) ctx.addIssue({ code: 'custom', path: ['creditTerms'], message: ERRORS[terms].message });
  })
  .transform((form) => ({
    type: form.type,
    name: form.name,
    phone: normalizePhone(form.phone),
    email: form.email === '' ? null : form.email,
    location: form.location === '' ? null : form.location,
    address: form.address === '' ? null : form.address,
    notes: form.notes === '' ? null : form.notes,
    creditTerms: form.type === 'supplier' && form.creditTerms !== '' ? form.creditTerms : null,
  }));
export type ContactFormValues = z.input<typeof contactFormSchema>;

// ------------------------------------------------------------------------------------------- CSV import

/** The columns of the contacts CSV (export writes them in this order; import reads them by name, any case). */
export const CONTACT_CSV_COLUMNS = ['type', 'name', 'phone', 'email', 'location', 'address', 'notes', 'creditTerms', 'active'] as const;
export const CONTACT_IMPORT_MAX_ROWS = 2000;

/** One CSV row as the browser read it (every cell text; blank cells may be missing). */
export const contactImportRowSchema = z.record(z.string().max(60), z.string().max(1000).nullable());

/** POST /api/contacts/import: all rows or none (decision 0040); `defaultType` for rows without a type. */
export const importContactsSchema = z.strictObject({
  defaultType: z.enum(CONTACT_TYPES).default('customer'),
  rows: z.array(contactImportRowSchema).min(1, 'The file has no rows.').max(CONTACT_IMPORT_MAX_ROWS, `At most ${CONTACT_IMPORT_MAX_ROWS} rows at a time.`),
});
export type ImportContactsInput = z.input<typeof importContactsSchema>;

export const contactImportRowErrorSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ContactImportRowError = z.infer<typeof contactImportRowErrorSchema>;
export const importContactsResponseSchema = z.object({ created: z.number().int() });

export interface ParsedContactRow {
  type: ContactType;
  name: string;
  phone: string;
  email: string | null;
  location: string | null;
  address: string | null;
  notes: string | null;
  creditTerms: string | null;
  isActive: boolean;
}

const csvCell = (row: Record<string, string | null>, column: string): string => {
  const key = Object.keys(row).find((k) => k.trim().toLowerCase() === column.toLowerCase());
  return (key === undefined ? '' : (row[key] ?? '')).trim();
};

/**
 * One CSV row checked as the server stores it: the row (phone normalised) or its problems, each with its field and
 * sentence. `row` is the line number people see in a spreadsheet (the header is line 1).
 */
export function parseContactCsvRow(raw: Record<string, string | null>, line: number, defaultType: ContactType): { contact: ParsedContactRow | null; errors: ContactImportRowError[] } {
  const errors: ContactImportRowError[] = [];
  const typeText = csvCell(raw, 'type').toLowerCase();
  const type = (typeText === '' ? defaultType : typeText) as ContactType;
  if (!(CONTACT_TYPES as readonly string[]).includes(type)) errors.push({ row: line, field: 'type', message: ERRORS.CONTACT_TYPE_UNKNOWN.message });
  const name = csvCell(raw, 'name');
  const phone = csvCell(raw, 'phone');
  for (const problem of newClientProblems({ type: (CONTACT_TYPES as readonly string[]).includes(type) ? type : 'other', name, phone })) {
    errors.push({ row: line, field: problem.field, message: ERRORS[problem.code].message });
  }
  const email = csvCell(raw, 'email').toLowerCase();
  if (email !== '' && !z.email().safeParse(email).success) errors.push({ row: line, field: 'email', message: 'A valid email is required.' });
  const creditTerms = csvCell(raw, 'creditTerms') || csvCell(raw, 'credit terms') || csvCell(raw, 'creditPeriod');
  const termsProblem = creditTermsProblem(creditTerms);
  if (termsProblem) errors.push({ row: line, field: 'creditTerms', message: ERRORS[termsProblem].message });
  const active = csvCell(raw, 'active').toLowerCase();
  const fields = { name, phone, email, location: csvCell(raw, 'location'), address: csvCell(raw, 'address'), notes: csvCell(raw, 'notes') };
  for (const [field, value] of Object.entries(fields)) {
    const max = CONTACT_LIMITS[field as keyof typeof CONTACT_LIMITS];
    if (value.length > max) errors.push({ row: line, field, message: `The ${field} must be at most ${max} characters.` });
    else if (!isStorableText(value)) errors.push({ row: line, field, message: UNSTORABLE_TEXT_MESSAGE });
  }
  if (errors.length > 0) return { contact: null, errors };
  const blank = (value: string) => (value === '' ? null : value);
  return {
    contact: {
      type,
      name,
      phone: normalizePhone(phone),
      email: blank(email),
      location: blank(fields.location),
      address: blank(fields.address),
      notes: blank(fields.notes),
      creditTerms: type === 'supplier' ? blank(creditTerms) : null,
      isActive: !['false', 'no', 'inactive', '0'].includes(active),
    },
    errors,
  };
}

/** A contact as a CSV row (the columns of CONTACT_CSV_COLUMNS; the phone as stored). */
export function contactCsvRow(contact: Contact): Record<(typeof CONTACT_CSV_COLUMNS)[number], string> {
  return {
    type: contact.type,
    name: contact.name,
    phone: contact.phone ?? '',
    email: contact.email ?? '',
    location: contact.location ?? '',
    address: contact.address ?? '',
    notes: contact.notes ?? '',
    creditTerms: contact.creditTerms ?? (contact.creditPeriodDays !== null ? `${contact.creditPeriodDays} days` : ''),
    active: contact.isActive ? 'true' : 'false',
  };
}

// ------------------------------------------------------------------------------------------- a contact's page

export const contactSaleSchema = z.object({
  id: z.string(),
  invoiceNumber: z.string(),
  date: z.string(),
  branchName: z.string().nullable(),
  totalCents: z.number().int(),
  amountPaidCents: z.number().int(),
  balanceDueCents: z.number().int(),
  paymentMethod: z.string(),
  status: z.string(),
  itemCount: z.number().int(),
});
export const contactSalePaymentSchema = z.object({
  saleId: z.string(),
  invoiceNumber: z.string(),
  at: z.string(),
  method: z.string(),
  amountCents: z.number().int(),
  reference: z.string().nullable(),
});
export const contactPrescriptionSchema = z.object({
  saleId: z.string(),
  invoiceNumber: z.string(),
  date: z.string(),
  productName: z.string(),
  quantity: z.number().int(),
  doctorName: z.string().nullable(),
  hospitalName: z.string().nullable(),
  prescriptionNumber: z.string().nullable(),
});
/**
 * GET /api/contacts/:id/summary: a contact's page. A customer: sales (newest first, at most 100), their payments and
 * prescriptions, and the balance owed on credit sales. A supplier: purchases, payments and the balance
 * (purchases - returns - payments; negative is credit held).
 */
export const contactSummarySchema = z.object({
  contact: contactSchema,
  balance: z.object({ totalCents: z.number().int(), paidCents: z.number().int(), returnsCents: z.number().int(), balanceCents: z.number().int() }),
  sales: z.array(contactSaleSchema),
  salePayments: z.array(contactSalePaymentSchema),
  prescriptions: z.array(contactPrescriptionSchema),
  purchases: z.array(supplierInvoiceSchema),
  supplierPayments: z.array(supplierPaymentSchema),
});
export type ContactSummary = z.infer<typeof contactSummarySchema>;
