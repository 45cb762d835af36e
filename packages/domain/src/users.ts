import { z } from 'zod';
import { STAFF_ROLES, TENANT_PERMISSIONS, type Permission } from './permissions.ts';

/** The staff of a pharmacy (/api/users): list, invite, resend an invitation, edit and deactivate. */

export const userIdParamsSchema = z.strictObject({ id: z.uuid() });

const name = z.string().trim().min(1, 'Enter a name').max(120);
/** An explicit permission list (null = the role's defaults), from the tenant catalogue only. */
const permissions = z.array(z.enum(TENANT_PERMISSIONS as [Permission, ...Permission[]])).max(200).nullable();
/** The branches a member may work in; null = every branch. */
const allowedBranchIds = z.array(z.uuid()).max(100).nullable();

export const inviteMemberSchema = z.strictObject({
  email: z.email('Enter a valid email address').max(254),
  name,
  role: z.enum(STAFF_ROLES),
  permissions: permissions.optional(),
  allowedBranchIds: allowedBranchIds.optional(),
  hasPosAccess: z.boolean(),
});
export type InviteMember = z.infer<typeof inviteMemberSchema>;

export const patchMemberSchema = z.strictObject({
  name: name.optional(),
  role: z.enum(STAFF_ROLES).optional(),
  permissions: permissions.optional(),
  allowedBranchIds: allowedBranchIds.optional(),
  hasPosAccess: z.boolean().optional(),
  isActive: z.boolean().optional(),
});
export type PatchMember = z.infer<typeof patchMemberSchema>;

/** A pharmacy member as the Users screen shows it. */
export const memberSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  /** The explicit list, or null when the role's defaults apply. */
  permissions: z.array(z.string()).nullable(),
  /** null means every branch. */
  allowedBranchIds: z.array(z.string()).nullable(),
  defaultBranchId: z.string().nullable(),
  hasPosAccess: z.boolean(),
  isOwner: z.boolean(),
  isActive: z.boolean(),
  /** Invited and not yet accepted (no password or email not verified). */
  invitePending: z.boolean(),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberListResponseSchema = z.object({ users: z.array(memberSchema) });
export const memberResponseSchema = z.object({ user: memberSchema });
/** Invite and resend: the member and 'Invitation sent to {email}'. */
export const invitationResponseSchema = z.object({ user: memberSchema, message: z.string() });
