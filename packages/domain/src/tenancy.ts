import { z } from 'zod';
import { kenyanPhoneText } from './phone.ts';

/**
 * Branches, the session's branch, pharmacy creation and the pharmacy theme: the request and response schemas of
 * /api/branches, /api/me/branch, /api/pharmacies and /api/pharmacy/theme (seed 000 sections 3 and 9).
 */

export const branchIdParamsSchema = z.strictObject({ id: z.uuid() });

const branchName = z.string().trim().min(1, 'Enter a branch name').max(80);
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const createBranchSchema = z.strictObject({
  name: branchName,
  address: optionalText(200),
  phone: kenyanPhoneText('Phone').nullable().optional(),
  isDefault: z.boolean().optional(),
});
export type CreateBranch = z.infer<typeof createBranchSchema>;

export const patchBranchSchema = z.strictObject({
  name: branchName.optional(),
  address: optionalText(200),
  phone: kenyanPhoneText('Phone').nullable().optional(),
  isActive: z.boolean().optional(),
  isDefault: z.boolean().optional(),
});
export type PatchBranch = z.infer<typeof patchBranchSchema>;

/** A branch as the API shows it. */
export const branchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  isDefault: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Branch = z.infer<typeof branchSchema>;

export const branchResponseSchema = z.object({ branch: branchSchema });
export const branchListResponseSchema = z.object({ branches: z.array(branchSchema) });

/** POST /api/me/branch: the branch the session works in from now on. */
export const switchBranchSchema = z.strictObject({ branchId: z.uuid() });

/** POST /api/pharmacies: a new pharmacy on a trial, owned by the caller. */
export const createPharmacySchema = z.strictObject({ name: z.string().trim().min(1, 'Enter the pharmacy name').max(120) });
export const createPharmacyResponseSchema = z.object({
  pharmacy: z.object({ id: z.string(), name: z.string() }),
  branches: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type CreatePharmacyResponse = z.infer<typeof createPharmacyResponseSchema>;

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a hex colour like #2563eb');
/** A logo: an https URL, or an inline PNG/JPEG/WebP image of at most about 200 KB. */
const logo = z
  .string()
  .max(280_000, 'The logo must be at most 200 KB')
  .refine(
    (v) => /^https:\/\/[^\s]+$/.test(v) || /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(v),
    'Use an https:// address or a PNG, JPEG or WebP image',
  );

/** The pharmacy's theme and receipt branding (seed 000 section 3, Pharmacy theme). */
export const themeSchema = z.strictObject({
  primaryColor: hex,
  secondaryColor: hex,
  accentColor: hex.optional(),
  backgroundColor: hex.optional(),
  headerColor: hex.optional(),
  logoUrl: logo.nullable().optional(),
  appTitle: z.string().trim().max(80).optional(),
  titleFormat: z.string().trim().max(120).optional(),
  receiptHeader: z.string().max(500).optional(),
  receiptFooter: z.string().max(500).optional(),
  location: z.string().trim().max(200).optional(),
  ownerPhone: z.string().trim().max(20).optional(),
});
export type Theme = z.infer<typeof themeSchema>;

/**
 * The theme as it is read back: a stored theme may predate a rule of themeSchema (it is shown, not refused),
 * so the response checks only the shape.
 */
export const themeResponseSchema = z.object({
  theme: z.looseObject({ primaryColor: z.string(), secondaryColor: z.string() }),
});

/** The default theme: primary #2563eb, secondary #10b981 (seed 000 section 3). */
export const DEFAULT_THEME: Theme = { primaryColor: '#2563eb', secondaryColor: '#10b981' };
