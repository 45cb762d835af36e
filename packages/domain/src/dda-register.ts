import { z } from 'zod';
import { businessDateSchema } from './products.ts';
import { addDays, addMonths } from './sales-history.ts';
import { isCalendarDate } from './text.ts';

/**
 * The DDA register (GET /api/reports/dda, report:advanced): for each controlled product in each branch, a
 * running-balance register read from the stock ledger for a date range — the opening balance, every receipt,
 * dispensing, return, adjustment and transfer with who entered it and the balance after it, and the totals received
 * and issued. The closing balance is the opening plus what came in minus what went out, so for a range ending today
 * it is the stock on hand (the ledger's sum). One register is one drug in one branch; the report pages by register.
 */

/** Registers (a drug in a branch) per page. */
export const DDA_REGISTER_PAGE_SIZE = 10;
export const DDA_REGISTER_MAX_PAGE_SIZE = 50;
/** The most lines one register answers; a longer register keeps its totals and balances and asks for a shorter range. */
export const DDA_REGISTER_MAX_LINES = 2000;
/** The longest range the register covers. */
export const DDA_REGISTER_MAX_YEARS = 5;

export const DDA_RANGE_ORDER_MESSAGE = 'The start date must be on or before the end date.';
export const DDA_RANGE_TOO_LONG_MESSAGE = `The date range cannot be longer than ${DDA_REGISTER_MAX_YEARS} years. Choose a shorter range.`;

/** Is the range from..to (both days included) no longer than the register allows? */
export function ddaRangeWithinLimit(from: string, to: string): boolean {
  return to < addMonths(from, DDA_REGISTER_MAX_YEARS * 12);
}

/** The range the register shows by default: the month of `today` up to today. */
export function defaultDdaRange(today: string): { from: string; to: string } {
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** The first clear sentence a range is refused with, or null when it may be shown. */
export function ddaRangeProblem(from: string, to: string): string | null {
  if (from > to) return DDA_RANGE_ORDER_MESSAGE;
  if (!ddaRangeWithinLimit(from, to)) return DDA_RANGE_TOO_LONG_MESSAGE;
  return null;
}

const day = (which: 'start' | 'end') =>
  z.string({ error: `Enter the ${which} date.` }).refine(isCalendarDate, `The ${which} date must be a real date (YYYY-MM-DD).`);

/** GET /api/reports/dda query. `branchId` narrows to one branch (else every branch the user may see). */
export const ddaRegisterQuerySchema = z
  .strictObject({
    from: day('start'),
    to: day('end'),
    branchId: z.uuid('Choose a branch.').optional(),
    productId: z.uuid('Choose a product.').optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(DDA_REGISTER_MAX_PAGE_SIZE).default(DDA_REGISTER_PAGE_SIZE),
  })
  .refine((q) => q.from <= q.to, { message: DDA_RANGE_ORDER_MESSAGE, path: ['to'] })
  .refine((q) => q.from > q.to || ddaRangeWithinLimit(q.from, q.to), { message: DDA_RANGE_TOO_LONG_MESSAGE, path: ['to'] });
export type DdaRegisterQueryInput = z.input<typeof ddaRegisterQuerySchema>;
export type DdaRegisterQuery = z.output<typeof ddaRegisterQuerySchema>;

/**
 * What a register line is, for the inspector: stock received from a supplier (or opening, imported stock), dispensed
 * on a sale, returned by a customer, returned to a supplier, adjusted, or transferred between branches.
 */
export const DDA_LINE_KINDS = ['receipt', 'dispensing', 'customer_return', 'supplier_return', 'adjustment', 'transfer_in', 'transfer_out', 'opening'] as const;
export type DdaLineKind = (typeof DDA_LINE_KINDS)[number];

/** The register's kind of a ledger movement kind (reservations move no stock and are never lines). */
export function ddaLineKind(movementKind: string, delta: number): DdaLineKind {
  switch (movementKind) {
    case 'purchase_receipt':
    case 'purchase_edit':
    case 'purchase_delete':
      return 'receipt';
    case 'sale':
    case 'reserved_sold':
      return 'dispensing';
    case 'sale_return':
      return 'customer_return';
    case 'purchase_return':
      return 'supplier_return';
    case 'transfer_in':
      return 'transfer_in';
    case 'transfer_out':
      return 'transfer_out';
    case 'opening':
    case 'import':
      return 'opening';
    default:
      return delta >= 0 && movementKind !== 'adjustment' ? 'receipt' : 'adjustment';
  }
}

const dispensingSchema = z.object({
  invoiceNumber: z.string(),
  patientName: z.string(),
  patientPhone: z.string().nullable(),
  /** The client's location and address (the address as the contact has it now; the sale keeps the location). */
  patientAddress: z.string().nullable(),
  patientId: z.string().nullable(),
  prescriber: z.string().nullable(),
  prescriberLicence: z.string().nullable(),
  hospital: z.string().nullable(),
  prescriptionNumber: z.string().nullable(),
  prescriptionDate: businessDateSchema.nullable(),
});
export type DdaDispensing = z.infer<typeof dispensingSchema>;

export const ddaRegisterLineSchema = z.object({
  movementId: z.uuid(),
  /** The ledger's total order. */
  sequence: z.number().int(),
  at: z.string(),
  /** The business day (Africa/Nairobi) of the movement. */
  date: businessDateSchema,
  kind: z.enum(DDA_LINE_KINDS),
  movementKind: z.string(),
  batchId: z.uuid().nullable(),
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema.nullable(),
  /** The ledger's reason as written ('Adjustment: damaged (broken vial)', 'Transfer to Westlands Branch'). */
  reason: z.string().nullable(),
  /** A receipt or a return to a supplier: the supplier and its invoice. */
  supplierName: z.string().nullable(),
  /** The supplier's invoice number (else the purchase number), or the sale's invoice number. */
  invoiceNumber: z.string().nullable(),
  /** A dispensing or a customer's return: the sale, the patient and the prescription. */
  dispensing: dispensingSchema.nullable(),
  /** A customer's return: its number (RET-…). */
  returnNumber: z.string().nullable(),
  /** A transfer: the other branch. */
  otherBranchName: z.string().nullable(),
  received: z.number().int(),
  issued: z.number().int(),
  /** The drug's balance in the branch after this line. */
  balance: z.number().int(),
  /** The batch's balance after this line. */
  batchBalance: z.number().int().nullable(),
  enteredBy: z.string().nullable(),
});
export type DdaRegisterLine = z.infer<typeof ddaRegisterLineSchema>;

export const ddaBatchSummarySchema = z.object({
  batchId: z.uuid(),
  batchNumber: z.string().nullable(),
  expiryDate: businessDateSchema.nullable(),
  openingBalance: z.number().int(),
  totalReceived: z.number().int(),
  totalIssued: z.number().int(),
  closingBalance: z.number().int(),
});
export type DdaBatchSummary = z.infer<typeof ddaBatchSummarySchema>;

export const ddaRegisterSchema = z.object({
  branchId: z.uuid(),
  branchName: z.string(),
  productId: z.uuid(),
  productName: z.string(),
  sku: z.string().nullable(),
  unit: z.string(),
  openingBalance: z.number().int(),
  totalReceived: z.number().int(),
  totalIssued: z.number().int(),
  closingBalance: z.number().int(),
  /** Lines in the range; `lines` holds the first DDA_REGISTER_MAX_LINES of them. */
  lineCount: z.number().int(),
  truncated: z.boolean(),
  lines: z.array(ddaRegisterLineSchema),
  batches: z.array(ddaBatchSummarySchema),
});
export type DdaRegister = z.infer<typeof ddaRegisterSchema>;

export const ddaRegisterResponseSchema = z.object({
  pharmacyName: z.string(),
  from: businessDateSchema,
  to: businessDateSchema,
  /** The branch asked for, else null (every branch the user may see). */
  branchId: z.uuid().nullable(),
  registers: z.array(ddaRegisterSchema),
  /** Registers over every page. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DdaRegisterResponse = z.infer<typeof ddaRegisterResponseSchema>;

// ------------------------------------------------------------------------------------------- folding the ledger

/** One ledger movement of a register, in ledger order, before balances. */
export interface DdaMovement {
  batchId: string | null;
  /** The change of the on-hand total: positive received, negative issued. */
  delta: number;
}

export interface DdaFold<M extends DdaMovement> {
  lines: (M & { received: number; issued: number; balance: number; batchBalance: number | null })[];
  openingBalance: number;
  totalReceived: number;
  totalIssued: number;
  closingBalance: number;
  /** Per batch met (in the openings or the lines), in order of first appearance. */
  batches: { batchId: string; openingBalance: number; totalReceived: number; totalIssued: number; closingBalance: number }[];
}

/**
 * Folds a register: from the opening balance (the sum of every earlier movement) and the movements of the range in
 * ledger order, each line's received and issued pieces and the balance after it (the drug's in the branch and its
 * batch's), the totals, and the closing balance = opening + received - issued, per drug and per batch.
 * `batchOpenings` are the batches' balances before the range.
 */
export function foldDdaRegister<M extends DdaMovement>(openingBalance: number, movements: readonly M[], batchOpenings: ReadonlyMap<string, number> = new Map()): DdaFold<M> {
  const batches = new Map<string, { openingBalance: number; totalReceived: number; totalIssued: number; closingBalance: number }>();
  for (const [batchId, opening] of batchOpenings) batches.set(batchId, { openingBalance: opening, totalReceived: 0, totalIssued: 0, closingBalance: opening });
  let balance = openingBalance;
  let totalReceived = 0;
  let totalIssued = 0;
  const lines = movements.map((m) => {
    const received = m.delta > 0 ? m.delta : 0;
    const issued = m.delta < 0 ? -m.delta : 0;
    balance += m.delta;
    totalReceived += received;
    totalIssued += issued;
    let batchBalance: number | null = null;
    if (m.batchId) {
      const batch = batches.get(m.batchId) ?? { openingBalance: 0, totalReceived: 0, totalIssued: 0, closingBalance: 0 };
      batch.totalReceived += received;
      batch.totalIssued += issued;
      batch.closingBalance += m.delta;
      batches.set(m.batchId, batch);
      batchBalance = batch.closingBalance;
    }
    return { ...m, received, issued, balance, batchBalance };
  });
  return {
    lines,
    openingBalance,
    totalReceived,
    totalIssued,
    closingBalance: openingBalance + totalReceived - totalIssued,
    batches: [...batches].map(([batchId, b]) => ({ batchId, ...b })),
  };
}

// ------------------------------------------------------------------------------------------- how a line reads

/** "Received from / issued to": who the pieces came from or went to, in the register's words. */
export function ddaParticulars(line: Pick<DdaRegisterLine, 'kind' | 'supplierName' | 'dispensing' | 'otherBranchName' | 'reason' | 'returnNumber'>): string {
  const d = line.dispensing;
  const patient = d ? [d.patientName, d.patientAddress].filter(Boolean).join(', ') : null;
  const prescriber = d ? [d.prescriber, d.hospital].filter(Boolean).join(', ') : null;
  switch (line.kind) {
    case 'receipt':
      return line.supplierName ? `Received from ${line.supplierName}` : (line.reason ?? 'Received');
    case 'dispensing':
      return `Issued to ${patient ?? 'patient'}${prescriber ? ` (prescribed by ${prescriber})` : ''}`;
    case 'customer_return':
      return `Returned by ${patient ?? 'patient'}${line.returnNumber ? ` (${line.returnNumber})` : ''}`;
    case 'supplier_return':
      return line.supplierName ? `Returned to ${line.supplierName}` : (line.reason ?? 'Returned to supplier');
    case 'transfer_in':
      return line.otherBranchName ? `Transfer from ${line.otherBranchName}` : (line.reason ?? 'Transfer in');
    case 'transfer_out':
      return line.otherBranchName ? `Transfer to ${line.otherBranchName}` : (line.reason ?? 'Transfer out');
    case 'opening':
      return line.reason ?? 'Opening stock';
    case 'adjustment':
      return line.reason ?? 'Adjustment';
  }
}

/** The invoice or prescription column: the supplier's invoice, or the sale's invoice and the prescription number. */
export function ddaReference(line: Pick<DdaRegisterLine, 'invoiceNumber' | 'dispensing'>): string {
  const rx = line.dispensing?.prescriptionNumber;
  return [line.invoiceNumber, rx ? `Rx ${rx}` : null].filter(Boolean).join(' / ');
}

/** The first day after `to` (the range's end as an exclusive bound). */
export function dayAfter(to: string): string {
  return addDays(to, 1);
}
