import type { MyPharmaciesResponse } from '@pharmapoint/domain/memberships';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { releasePlanUsage } from '../subscription/subscription.service.ts';
import {
  activeBranches,
  findOwnMembership,
  findOwnMemberships,
  markAccepted,
  markDeclined,
  moveSession,
  useInviteLinks,
  useTenant,
} from './memberships.repository.ts';

/**
 * A person's own side of their memberships (decision 0015): which pharmacies they work in, the invitations waiting
 * for their answer, accepting or declining one, and choosing the pharmacy the session works in.
 * Every use case acts on the caller's own rows only (user id from the session, never from the request).
 */

/** Who is asking: the signed-in person and their session. */
export interface Person {
  userId: string;
  /** The session's token hash (the session that switches). */
  tokenHash: string;
  /** The pharmacy the session works in now, if any. */
  pharmacyId: string | null;
}

const NO_INVITATION = 'There is no invitation from this pharmacy waiting for you.';

/** GET /api/me/pharmacies: the pharmacies the person works in (accepted, active) and the invitations waiting. */
export async function listOwnPharmacies(q: Queryable, person: Person): Promise<MyPharmaciesResponse> {
  const rows = await findOwnMemberships(q, person.userId);
  return {
    pharmacies: rows
      .filter((r) => !r.pending)
      .map((r) => ({ id: r.pharmacy_id, name: r.pharmacy_name, role: r.role, isOwner: r.is_owner, current: r.pharmacy_id === person.pharmacyId })),
    invitations: rows
      .filter((r) => r.pending)
      .map((r) => ({ pharmacyId: r.pharmacy_id, pharmacyName: r.pharmacy_name, role: r.role, invitedAt: r.created_at })),
  };
}

/**
 * Accepts the person's invitation to a pharmacy: from now on the membership gives the access the pharmacy chose.
 * The invitation links to that pharmacy stop working. The rest of the transaction works in that pharmacy.
 */
export async function acceptInvitation(q: Queryable, person: Pick<Person, 'userId'>, pharmacyId: string, now: Date): Promise<{ pharmacy: { id: string; name: string } }> {
  const row = await findOwnMembership(q, person.userId, pharmacyId);
  if (!row || !row.pending || !row.is_active) throw new AppError('NOT_FOUND', { message: NO_INVITATION });
  await useTenant(q, pharmacyId);
  await markAccepted(q, pharmacyId, person.userId, now);
  await useInviteLinks(q, person.userId, pharmacyId, now);
  await audit(q, { pharmacyId, userId: person.userId }, 'accept_invite', 'user', person.userId, null, { role: row.role });
  return { pharmacy: { id: pharmacyId, name: row.pharmacy_name } };
}

/** Declines the person's invitation: the membership stays inactive (the pharmacy sees 'Declined') and frees its plan place. */
export async function declineInvitation(q: Queryable, person: Pick<Person, 'userId'>, pharmacyId: string, now: Date): Promise<{ pharmacy: { id: string; name: string } }> {
  const row = await findOwnMembership(q, person.userId, pharmacyId);
  if (!row || !row.pending || !row.is_active) throw new AppError('NOT_FOUND', { message: NO_INVITATION });
  await useTenant(q, pharmacyId);
  await markDeclined(q, pharmacyId, person.userId, now);
  await useInviteLinks(q, person.userId, pharmacyId, now);
  if (row.role !== 'demo') await releasePlanUsage(q, { pharmacyId }, 'users', 1);
  await audit(q, { pharmacyId, userId: person.userId }, 'decline_invite', 'user', person.userId, null, null);
  return { pharmacy: { id: pharmacyId, name: row.pharmacy_name } };
}

/**
 * POST /api/me/pharmacy: the session works in another pharmacy of the person. Only an accepted, active membership
 * counts; anything else is 'Pharmacy not found' and nothing changes. The branch is the member's default if allowed,
 * else the pharmacy's default, else the first they may work in.
 */
export async function switchPharmacy(q: Queryable, person: Person, pharmacyId: string): Promise<{ pharmacy: { id: string; name: string } }> {
  const row = await findOwnMembership(q, person.userId, pharmacyId);
  if (!row || row.pending || !row.is_active) throw new AppError('PHARMACY_NOT_FOUND');
  await useTenant(q, pharmacyId);
  const allowed = (await activeBranches(q, pharmacyId)).filter((b) => !row.allowed_branch_ids || row.allowed_branch_ids.includes(b.id));
  const branch = allowed.find((b) => b.id === row.default_branch_id) ?? allowed[0] ?? null;
  await moveSession(q, person.tokenHash, person.userId, pharmacyId, branch?.id ?? null);
  return { pharmacy: { id: pharmacyId, name: row.pharmacy_name } };
}
