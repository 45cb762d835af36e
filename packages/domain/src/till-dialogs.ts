import { z } from 'zod';
import { DEFAULT_REFILL_DAYS, REFILL_DAYS_MAX, REFILL_DAYS_MIN, hasPrescriber, prescriptionSchema, type Prescription } from './sales.ts';
import { isCalendarDate, text } from './text.ts';

/**
 * The forms of the till's DDA prescription and refill reminder dialogs (seed 001 section 5, DDA modal and Refill
 * reminder) as the cashier types them. Their outputs are what a sale line carries (`prescription`, `refillDays`),
 * checked again by the server when the sale is completed.
 */

/** The DDA modal's sentence (seed 001 section 5). */
export const DDA_PRESCRIBER_MESSAGE = 'Doctor name and Hospital/Clinic name are required for DDA products.';
/** The refill reminder's sentences (seed 001 section 5). */
export const REFILL_DAYS_MESSAGE = 'Please enter a valid number of days (1-365).';
export const REFILL_CLIENT_MESSAGE = 'Please select a client for refill reminders';

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

export const prescriptionFormSchema = z
  .object({
    doctorName: text(200, 'Doctor name'),
    hospitalName: text(200, 'Hospital/Clinic name'),
    prescriptionNumber: text(100, 'Prescription number'),
    prescriptionDate: z.string().refine((value) => value === '' || isCalendarDate(value), 'The prescription date must be a real date (YYYY-MM-DD).'),
    patientId: text(100, 'Patient id'),
    doctorLicense: text(100, 'Doctor licence'),
    notes: text(500, 'Notes'),
  })
  .superRefine((form, ctx) => {
    if (!hasPrescriber(form)) {
      // One sentence for both fields, shown once by the dialog; each blank field is marked invalid.
      if (!form.doctorName.trim()) ctx.addIssue({ code: 'custom', path: ['doctorName'], message: DDA_PRESCRIBER_MESSAGE });
      if (!form.hospitalName.trim()) ctx.addIssue({ code: 'custom', path: ['hospitalName'], message: DDA_PRESCRIBER_MESSAGE });
    }
  })
  .transform(
    (form): Prescription => ({
      doctorName: blankToNull(form.doctorName),
      hospitalName: blankToNull(form.hospitalName),
      prescriptionNumber: blankToNull(form.prescriptionNumber),
      prescriptionDate: blankToNull(form.prescriptionDate),
      patientId: blankToNull(form.patientId),
      doctorLicense: blankToNull(form.doctorLicense),
      notes: blankToNull(form.notes),
    }),
  )
  .pipe(prescriptionSchema);
export type PrescriptionFormValues = z.input<typeof prescriptionFormSchema>;

/** The form's values for a prescription (blank when none). */
export function prescriptionFormValues(p: Prescription | null | undefined): PrescriptionFormValues {
  return {
    doctorName: p?.doctorName ?? '',
    hospitalName: p?.hospitalName ?? '',
    prescriptionNumber: p?.prescriptionNumber ?? '',
    prescriptionDate: p?.prescriptionDate ?? '',
    patientId: p?.patientId ?? '',
    doctorLicense: p?.doctorLicense ?? '',
    notes: p?.notes ?? '',
  };
}

/** The refill days as typed: a whole number 1-365. */
export const refillFormSchema = z.object({
  days: z.string().transform((value, ctx) => {
    const t = value.trim();
    const n = /^\d{1,3}$/.test(t) ? Number(t) : NaN;
    if (!Number.isInteger(n) || n < REFILL_DAYS_MIN || n > REFILL_DAYS_MAX) {
      ctx.addIssue({ code: 'custom', message: REFILL_DAYS_MESSAGE });
      return z.NEVER;
    }
    return n;
  }),
});
export type RefillFormValues = z.input<typeof refillFormSchema>;
export const DEFAULT_REFILL_FORM: RefillFormValues = { days: String(DEFAULT_REFILL_DAYS) };
