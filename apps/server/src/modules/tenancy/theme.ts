import { z } from 'zod';

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

/** The default theme: primary #2563eb, secondary #10b981 (seed 000 section 3). */
export const DEFAULT_THEME: Theme = { primaryColor: '#2563eb', secondaryColor: '#10b981' };
