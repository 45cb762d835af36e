import { effectivePermissions, isPermission } from '@pharmapoint/domain/permissions';
import type { InviteMember, Member, PatchMember } from '@pharmapoint/domain/users';
import type { Queryable } from '../../db/database.ts';
import { holds, type RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashSecret, newSecret } from '../../platform/tokens.ts';
import { audit } from '../audit/audit.service.ts';
import { assertWithinPlanLimit, releasePlanUsage } from '../subscription/subscription.service.ts';
import { rehomeSessions } from '../tenancy/branches.service.ts';
import {
  existingBranchIds,
  findMember,
  findMembers,
  findPharmacyName,
  findUserIdByEmail,
  insertInvitation,
  insertInvitedUser,
  membershipExists,
  reopenInvitation,
  replaceInviteToken,
  revokeSessionsIn,
  toMember,
  updateMembership,
} from './users.repository.ts';

/** How long an invitation link stays valid. */
export const INVITE_DAYS = 7;

/** What sending an invitation needs: the mailer (the email is queued in the transaction) and the app's address. */
export interface InviteMail {
  mailer: Mailer;
  publicUrl: string;
}


/** What a member holds with this role, explicit list and POS access (the domain's rules; '*' for admins). */
function accessOf(member: { role: string; permissions?: string[] | null; hasPosAccess: boolean }): readonly string[] {
  return effectivePermissions({ role: member.role, permissions: member.permissions ?? null, hasPOSAccess: member.hasPosAccess });
}

/** Is every permission of `access` one the caller holds? Owners and admins ('*') hold all. */
function withinOwnAccess(ctx: RequestContext, access: readonly string[]): boolean {
  // '*' (admins and owners) is held only by a caller who has '*' too.
  return access.every((p) => (isPermission(p) ? holds(ctx, p) : ctx.permissions.includes(p)));
}

/** Nobody hands out more than they hold: the role, the explicit list and POS access must be within the caller's own. */
function assertCanGrant(ctx: RequestContext, member: { role: string; permissions?: string[] | null; hasPosAccess: boolean }): void {
  const access = accessOf(member);
  if (!withinOwnAccess(ctx, access)) {
    throw new AppError('GRANT_EXCEEDS_OWN', { details: { missing: access.filter((p) => !ctx.permissions.includes(p)) } });
  }
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && [...a].sort().every((value, i) => value === [...b].sort()[i]);

export async function listMembers(q: Queryable, ctx: RequestContext): Promise<{ users: Member[] }> {
  return { users: (await findMembers(q, ctx.pharmacyId)).map(toMember) };
}

async function assertBranchesOfTenant(q: Queryable, pharmacyId: string, ids: readonly string[] | null | undefined): Promise<void> {
  if (!ids?.length) return;
  const unique = [...new Set(ids)];
  const found = await existingBranchIds(q, pharmacyId, unique);
  if (found.length !== unique.length) {
    throw new AppError('VALIDATION_FAILED', {
      message: 'allowedBranchIds: Unknown branch',
      details: { issues: [{ path: 'allowedBranchIds', message: 'Unknown branch' }] },
    });
  }
}

/**
 * A new invitation link to this pharmacy, emailed through the job queue in the transaction. The email is the same
 * whether or not the address has an account (the link's page tells the person which way to accept).
 */
async function issueInvite(q: Queryable, mail: InviteMail, ctx: RequestContext, invitee: { id: string; email: string; name: string }): Promise<void> {
  const secret = newSecret();
  // Earlier links of the same invitation stop working once a new one is sent.
  await replaceInviteToken(q, invitee.id, ctx.pharmacyId, hashSecret(secret), INVITE_DAYS, ctx.now);
  const pharmacyName = (await findPharmacyName(q, ctx.pharmacyId)) ?? 'PharmaPoint';
  const link = `${mail.publicUrl}/accept-invite?token=${encodeURIComponent(secret)}`;
  await mail.mailer.enqueue(
    q,
    {
      to: invitee.email,
      subject: `You are invited to ${pharmacyName} on PharmaPoint`,
      text: `Hello ${invitee.name},\n\nYou have been invited to work at ${pharmacyName} on PharmaPoint.\nAccept or decline the invitation here (valid for ${INVITE_DAYS} days):\n${link}\n\nIf you already use PharmaPoint, sign in with this email address to answer it.\n`,
      html: `<p>Hello ${escapeHtml(invitee.name)},</p><p>You have been invited to work at <strong>${escapeHtml(pharmacyName)}</strong> on PharmaPoint.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a> (valid for ${INVITE_DAYS} days).</p><p>If you already use PharmaPoint, sign in with this email address to answer it.</p>`,
    },
    ctx.pharmacyId,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Invites a member: a pending membership (no access until the person accepts it) and a one-time link emailed in the
 * same transaction. An email without an account gets an account with no password yet (the person chooses it when
 * accepting). The answer, the email and the members-list row are the same whether or not the email already had an
 * account: the pharmacy sees the email, the name it typed and the role (decision 0015). Takes a user place of the
 * plan (given back when the person declines or the invitation is cancelled).
 */
export async function inviteMember(q: Queryable, ctx: RequestContext, input: InviteMember, mail: InviteMail): Promise<{ user: Member; message: string }> {
  const email = input.email.trim().toLowerCase();
  assertCanGrant(ctx, input);
  await assertBranchesOfTenant(q, ctx.pharmacyId, input.allowedBranchIds);
  const existing = await findUserIdByEmail(q, email);
  if (existing && (await membershipExists(q, ctx.pharmacyId, existing))) {
    throw new AppError('CONFLICT', { message: 'This person is already a member of this pharmacy.' });
  }
  await assertWithinPlanLimit(q, ctx, 'users', 1);
  const userId = existing ?? (await insertInvitedUser(q, email, input.name));
  await insertInvitation(q, ctx.pharmacyId, {
    userId,
    invitedName: input.name,
    role: input.role,
    permissions: input.permissions ?? null,
    allowedBranchIds: input.allowedBranchIds ?? null,
    hasPosAccess: input.hasPosAccess,
    invitedBy: ctx.userId,
    at: ctx.now,
  });
  await issueInvite(q, mail, ctx, { id: userId, email, name: input.name });
  const row = await findMember(q, ctx.pharmacyId, userId);
  if (!row) throw new Error('invited member not found');
  const created = toMember(row);
  await audit(q, ctx, 'invite', 'user', userId, null, created);
  return { user: created, message: `Invitation sent to ${created.email}` };
}

/**
 * Sends a new invitation link to a member who has not accepted yet (earlier links stop working). A declined
 * invitation is sent again as a new question (it takes a user place of the plan again).
 */
export async function resendInvite(q: Queryable, ctx: RequestContext, userId: string, mail: InviteMail): Promise<{ user: Member; message: string }> {
  const row = await findMember(q, ctx.pharmacyId, userId, true);
  if (!row) throw new AppError('NOT_FOUND');
  const before = toMember(row);
  if (!before.invitePending) throw new AppError('CONFLICT', { message: 'This person has already accepted the invitation.' });
  if (before.status === 'declined') {
    await assertWithinPlanLimit(q, ctx, 'users', 1);
    await reopenInvitation(q, ctx.pharmacyId, userId, ctx.now);
  }
  await issueInvite(q, mail, ctx, before);
  const after = await findMember(q, ctx.pharmacyId, userId);
  if (!after) throw new Error('member vanished');
  await audit(q, ctx, 'resend_invite', 'user', userId, null, null);
  const current = toMember(after);
  return { user: current, message: `Invitation sent to ${current.email}` };
}

/**
 * Edits a membership (role, permissions, branches, POS access, active), never the person: their name, email and
 * password are theirs (decision 0015). Only the owner edits the owner (whose role stays owner); nobody deactivates themselves;
 * nobody edits a member with more access than their own or gives more than they hold; role and permission
 * changes need user:manage_roles;
 * deactivating needs user:delete besides user:update. A deactivated member's sessions in this pharmacy end; a
 * reactivated one counts against the plan's user limit again.
 */
export async function patchMember(q: Queryable, ctx: RequestContext, userId: string, patch: PatchMember): Promise<{ user: Member }> {
  const row = await findMember(q, ctx.pharmacyId, userId, true);
  if (!row) throw new AppError('NOT_FOUND');
  const before = toMember(row);
  if (before.isOwner && !ctx.subject.isOwner) {
    throw new AppError('FORBIDDEN', { message: "Only the owner can change the owner's membership." });
  }
  if (before.isOwner && patch.role !== undefined) throw new AppError('CONFLICT', { message: "The owner's role cannot be changed." });
  // Nobody changes a member who holds more than they do, or gives more than they hold; changing what a member
  // may do (role or explicit list) is role management.
  if (!withinOwnAccess(ctx, accessOf(before))) throw new AppError('MEMBER_OUTRANKS');
  const next = {
    role: patch.role ?? before.role,
    permissions: patch.permissions === undefined ? before.permissions : patch.permissions,
    hasPosAccess: patch.hasPosAccess ?? before.hasPosAccess,
  };
  if ((next.role !== before.role || !sameList(next.permissions, before.permissions)) && !holds(ctx, 'user:manage_roles')) {
    throw new AppError('FORBIDDEN');
  }
  assertCanGrant(ctx, next);
  if (patch.isActive === false && before.isActive) {
    if (userId === ctx.userId) throw new AppError('FORBIDDEN', { message: 'You cannot deactivate your own account.' });
    if (!holds(ctx, 'user:delete')) throw new AppError('FORBIDDEN');
  }
  if (patch.isActive === true && before.status === 'declined') {
    throw new AppError('CONFLICT', { message: 'This person declined the invitation. Send the invitation again to ask once more.' });
  }
  // A member coming back takes a user place of the plan again.
  if (patch.isActive === true && !before.isActive) await assertWithinPlanLimit(q, ctx, 'users', 1);
  await assertBranchesOfTenant(q, ctx.pharmacyId, patch.allowedBranchIds);
  const isActive = patch.isActive ?? before.isActive;
  await updateMembership(q, ctx.pharmacyId, userId, {
    ...next,
    allowedBranchIds: patch.allowedBranchIds === undefined ? before.allowedBranchIds : patch.allowedBranchIds,
    isActive,
  });
  if (!isActive && before.isActive) {
    // Their place in the plan is free again; their sessions here end.
    await releasePlanUsage(q, ctx, 'users', 1);
    await revokeSessionsIn(q, ctx.pharmacyId, userId, ctx.now);
  } else if (patch.allowedBranchIds !== undefined) {
    // A session in a branch the member may no longer work in moves to one they may.
    await rehomeSessions(q, ctx, userId);
  }
  const after = await findMember(q, ctx.pharmacyId, userId);
  if (!after) throw new Error('member vanished');
  const member = toMember(after);
  await audit(q, ctx, isActive === before.isActive ? 'update' : isActive ? 'reactivate' : 'deactivate', 'user', userId, before, member);
  return { user: member };
}

/**
 * An account with no password yet for a new pharmacy's owner (a licence paid by M-Pesa, issue 11): the owner
 * chooses the password on /password-setup. Null when the email already has an account.
 */
export async function createOwnerAccount(q: Queryable, email: string, name: string): Promise<string | null> {
  const normalized = email.trim().toLowerCase();
  if (await findUserIdByEmail(q, normalized)) return null;
  return insertInvitedUser(q, normalized, name);
}
