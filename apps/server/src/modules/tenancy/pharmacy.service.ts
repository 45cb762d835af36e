import { randomBytes } from 'node:crypto';
import { DEFAULT_SETTINGS, sanitizeSettings } from '@pharmapoint/domain/settings';
import { newStandardSubscription, newTrialSubscription } from '@pharmapoint/domain/subscription';
import type { Queryable } from '../../db/database.ts';
import { insertSubscription } from '../subscription/subscription.repository.ts';
import { DEFAULT_THEME } from './theme.ts';

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
 * branches (the first one default), the settings document, the subscription of the plan and the owner's
 * membership. It sets the transaction's tenant to the new pharmacy (set_config local to the transaction),
 * so it works from any scope and row-level security accepts the tenant rows.
 */
export async function createPharmacy(q: Queryable, input: CreatePharmacyInput): Promise<CreatedPharmacy> {
  const pharmacyId = input.id ?? newPharmacyId(input.now);
  const names = input.branchNames?.length ? [...input.branchNames] : [DEFAULT_BRANCH_NAME];
  const [owner] = await q.query<{ email: string }>(`SELECT email FROM users WHERE id = $1`, [input.ownerUserId]);
  await q.query(`SELECT set_config('app.pharmacy_id', $1, true)`, [pharmacyId]);
  await q.query(
    `INSERT INTO pharmacies (id, name, owner_email, theme, is_demo, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [pharmacyId, input.name, owner?.email ?? null, JSON.stringify(DEFAULT_THEME), input.isDemo ?? false, input.ownerUserId, input.now],
  );
  const branches: { id: string; name: string }[] = [];
  for (const [index, name] of names.entries()) {
    const [row] = await q.query<{ id: string; name: string }>(
      `INSERT INTO branches (pharmacy_id, name, is_default, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id, name`,
      [pharmacyId, name, index === 0, input.now],
    );
    if (row) branches.push(row);
  }
  const settings = sanitizeSettings(
    { ...DEFAULT_SETTINGS, pharmacyName: input.name, branches: names, defaultBranch: names[0] },
    { branchName: names[0], locationName: undefined, branches: names },
  );
  await q.query(`INSERT INTO settings (pharmacy_id, document, updated_at, updated_by) VALUES ($1, $2, $3, $4)`, [
    pharmacyId,
    JSON.stringify(settings),
    input.now,
    input.ownerUserId,
  ]);
  const subscription = input.plan === 'standard' ? newStandardSubscription(input.now) : newTrialSubscription(input.now);
  await insertSubscription(q, pharmacyId, subscription, { initializedBy: input.ownerUserId, method: 'create_pharmacy' });
  await q.query(
    `INSERT INTO memberships (pharmacy_id, user_id, role, is_owner, has_pos_access, default_branch_id)
     VALUES ($1, $2, 'owner', true, true, $3)`,
    [pharmacyId, input.ownerUserId, branches[0]?.id ?? null],
  );
  return { pharmacyId, branches };
}
