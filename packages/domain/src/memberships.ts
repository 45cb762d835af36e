import { z } from 'zod';
import { text } from './text.ts';

/**
 * A person's own memberships (decision 0015): the pharmacies they work in, the invitations waiting for their answer,
 * choosing the pharmacy the session works in, and their own name. Routes under /api/me, for the signed-in person.
 */

/** A pharmacy id (seed 000 section 3: prefix, time and random text; the seed's fixed ids). */
export const pharmacyIdSchema = z.string().regex(/^[a-z0-9_]{3,64}$/, 'Choose a pharmacy');

/** POST /api/me/pharmacy: the pharmacy the session works in from now on (an active membership of the caller). */
export const switchPharmacyRequestSchema = z.strictObject({ pharmacyId: pharmacyIdSchema });
export type SwitchPharmacyRequest = z.infer<typeof switchPharmacyRequestSchema>;

/** POST /api/me/invitations/accept and /decline: the pharmacy whose invitation is answered. */
export const invitationAnswerRequestSchema = z.strictObject({ pharmacyId: pharmacyIdSchema });

/** A pharmacy the person works in. */
export const myPharmacySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  isOwner: z.boolean(),
  /** The pharmacy the session works in now. */
  current: z.boolean(),
});
export type MyPharmacy = z.infer<typeof myPharmacySchema>;

/** An invitation waiting for the person's answer. */
export const myInvitationSchema = z.object({
  pharmacyId: z.string(),
  pharmacyName: z.string(),
  role: z.string(),
  invitedAt: z.iso.datetime(),
});
export type MyInvitation = z.infer<typeof myInvitationSchema>;

/** GET /api/me/pharmacies */
export const myPharmaciesResponseSchema = z.object({
  pharmacies: z.array(myPharmacySchema),
  invitations: z.array(myInvitationSchema),
});
export type MyPharmaciesResponse = z.infer<typeof myPharmaciesResponseSchema>;

/** POST /api/me/pharmacy: where the session works now. */
export const switchPharmacyResponseSchema = z.object({
  pharmacy: z.object({ id: z.string(), name: z.string() }),
  message: z.string(),
});

/** POST /api/me/invitations/accept|decline */
export const invitationAnswerResponseSchema = z.object({
  pharmacy: z.object({ id: z.string(), name: z.string() }),
  message: z.string(),
});

/** PATCH /api/me: what a person changes of themselves here (their name; email and password have their own flows). */
export const updateProfileRequestSchema = z.strictObject({
  name: text(120, 'Name').pipe(z.string().min(1, 'Enter your name')),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
