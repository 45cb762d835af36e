import { z } from 'zod';
import { text } from './text.ts';
import { STAFF_ROLES, TENANT_PERMISSIONS, type Permission } from './permissions.ts';

/**
 * The staff of a pharmacy (/api/users): list, invite, resend an invitation, edit and deactivate (decision 0015).
 * A pharmacy changes a person's membership (role, permissions, branches, POS access, active), never the person:
 * name, email and password belong to the person (PATCH /api/me, password reset).
 */

export const userIdParamsSchema = z.strictObject({ id: z.uuid() });

/** The name the pharmacy calls the person it invites (shown to it until they accept; their own name after). */
const name = text(120, 'Name').pipe(z.string().min(1, 'Enter a name'));
/** An explicit permission list (null = the role's defaults), from the tenant catalogue only. */
const permissions = z.array(z.enum(TENANT_PERMISSIONS as [Permission, ...Permission[]])).max(200).nullable();
/** The branches a member may work in; null = every branch. */
const allowedBranchIds = z.array(z.uuid()).min(1, 'Choose at least one branch').max(100).nullable();

export const inviteMemberSchema = z.strictObject({
  email: z.email('Enter a valid email address').max(254),
  name,
  role: z.enum(STAFF_ROLES),
  permissions: permissions.optional(),
  allowedBranchIds: allowedBranchIds.optional(),
  hasPosAccess: z.boolean(),
});
export type InviteMember = z.infer<typeof inviteMemberSchema>;

/** What a pharmacy may change of a member: the membership only (no name, email or password). */
export const patchMemberSchema = z.strictObject({
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
  /** Invited and not yet accepted: the membership gives no access until the person accepts it. */
  invitePending: z.boolean(),
  /** active, invited (waiting for an answer), declined (the person said no) or deactivated (by the pharmacy). */
  status: z.enum(['active', 'invited', 'declined', 'deactivated']),
  lastLoginAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberListResponseSchema = z.object({ users: z.array(memberSchema) });
export const memberResponseSchema = z.object({ user: memberSchema });
/** Invite and resend: the member and 'Invitation sent to {email}'. */
export const invitationResponseSchema = z.object({ user: memberSchema, message: z.string() });
