import { randomBytes } from 'node:crypto';
import { DEFAULT_THEME, type CreatePharmacyResponse, type Theme } from '@pharmapoint/domain/tenancy';
import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { createInitialSettings } from '../settings/settings.service.ts';
import { startSubscription } from '../subscription/subscription.service.ts';
import {
  findTheme,
  findUserEmail,
  insertFirstBranch,
  insertOwnerMembership,
  insertPharmacy,
  moveSession,
  updateTheme,
  useTenant,
} from './pharmacy.repository.ts';

/** The name of a pharmacy's first branch when none is given (seed 000 section 9). */
export const DEFAULT_BRANCH_NAME = 'Main Branch';

/** A new pharmacy id: a prefix, the time in base 36 and random text (seed 000 section 3). */
export function newPharmacyId(now: Date = new Date()): string {
  const random = randomBytes(6).toString('hex').slice(0, 8);
  return `pharm_${now.getTime().toString(36)}_${random}`;
}

export interface CreatePharmacyInput {
  /** A fixed id (seed, tests); otherwise newPharmacyId(). */
  id?: string;
  name: string;
  ownerUserId: string;
  /** Branch names, the first being the default; ['Main Branch'] when absent or empty. */
  branchNames?: readonly string[];
  plan: 'trial' | 'standard';
  isDemo?: boolean;
  now: Date;
}

export interface CreatedPharmacy {
  pharmacyId: string;
  branches: { id: string; name: string }[];
}

/**
 * Creates a pharmacy with everything it needs to be used at once: the pharmacy row (default theme), its
 * branches (the first one default), the settings document, the subscription of the plan with its usage
 * counters, and the owner's membership. It sets the transaction's tenant to the new pharmacy (local to the
 * transaction), so it works from any scope and row-level security accepts the tenant rows.
 */
export async function createPharmacy(q: Queryable, input: CreatePharmacyInput): Promise<CreatedPharmacy> {
  const pharmacyId = input.id ?? newPharmacyId(input.now);
  const names = input.branchNames?.length ? [...input.branchNames] : [DEFAULT_BRANCH_NAME];
  const ownerEmail = await findUserEmail(q, input.ownerUserId);
  await useTenant(q, pharmacyId);
  await insertPharmacy(q, {
    id: pharmacyId,
    name: input.name,
    ownerEmail,
    theme: DEFAULT_THEME,
    isDemo: input.isDemo ?? false,
    createdBy: input.ownerUserId,
    at: input.now,
  });
  const branches: { id: string; name: string }[] = [];
  for (const [index, name] of names.entries()) branches.push(await insertFirstBranch(q, pharmacyId, name, index === 0, input.now));
  await createInitialSettings(q, pharmacyId, { pharmacyName: input.name, branchNames: names, userId: input.ownerUserId, now: input.now });
  await startSubscription(q, pharmacyId, {
    plan: input.plan,
    now: input.now,
    initializedBy: input.ownerUserId,
    method: 'create_pharmacy',
    usage: { users: 1, branches: branches.length },
  });
  await insertOwnerMembership(q, pharmacyId, input.ownerUserId, branches[0]?.id ?? null);
  return { pharmacyId, branches };
}

/** Who creates a pharmacy through POST /api/pharmacies: a signed-in user and their session. */
export interface PharmacyCreator {
  userId: string;
  sessionTokenHash: string;
  isDemo: boolean;
}

/**
 * POST /api/pharmacies: a new pharmacy on a trial owned by the caller, whose session starts working in it at once.
 * Demo users get the specification's own refusal.
 */
export async function createOwnPharmacy(q: Queryable, creator: PharmacyCreator, input: { name: string }, now: Date): Promise<CreatePharmacyResponse> {
  if (creator.isDemo) throw new AppError('DEMO_CANNOT_CREATE_PHARMACY');
  const created = await createPharmacy(q, { name: input.name, ownerUserId: creator.userId, plan: 'trial', now });
  await moveSession(q, creator.sessionTokenHash, created.pharmacyId, created.branches[0]?.id ?? null);
  await audit(q, { pharmacyId: created.pharmacyId, userId: creator.userId }, 'create', 'pharmacy', created.pharmacyId, null, { name: input.name });
  return { pharmacy: { id: created.pharmacyId, name: input.name }, branches: created.branches };
}

/** The pharmacy's theme over the defaults. */
export async function getTheme(q: Queryable, ctx: RequestContext): Promise<{ theme: Theme }> {
  const stored = await findTheme(q, ctx.pharmacyId);
  if (!stored) throw new AppError('PHARMACY_NOT_FOUND');
  return { theme: { ...DEFAULT_THEME, ...stored } };
}

/** Replaces the pharmacy's theme (settings:system), audited. */
export async function saveTheme(q: Queryable, ctx: RequestContext, theme: Theme): Promise<{ theme: Theme }> {
  const before = await findTheme(q, ctx.pharmacyId, true);
  if (!before) throw new AppError('PHARMACY_NOT_FOUND');
  await updateTheme(q, ctx.pharmacyId, theme, ctx.now);
  await audit(q, ctx, 'update', 'theme', ctx.pharmacyId, before, theme);
  return { theme: { ...DEFAULT_THEME, ...theme } };
}
