import type { Role } from '@pharmapoint/domain/permissions';
import type { Database } from '../src/db/database.ts';
import { hash } from '@node-rs/argon2';
import { recountPlanUsage } from '../src/modules/subscription/subscription.service.ts';
import { createPharmacy } from '../src/modules/tenancy/pharmacy.service.ts';

/** The password of every fixture user unless a test picks another. */
export const FIXTURE_PASSWORD = 'Fixture#2026pw';

/**
 * argon2id is slow on purpose (19 MiB and 2 passes for every hash AND every check: about 20 ms each here), and every
 * sign-in of a fixture user checks its hash. Fixture users get an argon2id hash with the smallest cost instead (the
 * cost is stored in the hash, so the server's verify reads it from there): sign-in still runs the real argon2id
 * check, in 0.4 ms. Hashes the server makes itself (sign-up, a changed password, a PIN) keep the server's cost.
 * One hash per password string.
 */
const FIXTURE_HASH_COST = { memoryCost: 64, timeCost: 1, parallelism: 1 } as const;
const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hash(password, FIXTURE_HASH_COST);
    hashes.set(password, hashed);
  }
  return hashed;
}

export interface FixtureUser {
  id: string;
  email: string;
  password: string;
}

/** Inserts a user (verified unless told otherwise) and returns its id, email and password. */
export async function createUser(
  db: Database,
  options: { email: string; name?: string; password?: string; verified?: boolean; isPlatformOperator?: boolean },
): Promise<FixtureUser> {
  const password = options.password ?? FIXTURE_PASSWORD;
  const email = options.email.toLowerCase();
  const [row] = await db.owner.query<{ id: string }>(
    `INSERT INTO users (email, name, password_hash, email_verified_at, is_platform_operator)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [email, options.name ?? email.split('@')[0], await cachedHash(password), options.verified === false ? null : new Date(), options.isPlatformOperator ?? false],
  );
  if (!row) throw new Error(`could not create user ${email}`);
  return { id: row.id, email, password };
}

export interface PharmacyFixture {
  pharmacyId: string;
  branches: { id: string; name: string }[];
  /** One user per requested role (always an owner); emails are <role>@<pharmacy id>.test. */
  users: Record<string, FixtureUser>;
}

/**
 * A pharmacy with its branches and one user per role, through the real createPharmacy. Role 'demo' flags the
 * pharmacy as a demo pharmacy (as demo_pharmacy_shared is). Cashiers get POS access. The usage counters
 * match the rows (a trial fixture with several staff is over its user limit, as a test may want).
 */
export async function createPharmacyWithStaff(
  db: Database,
  options: { id: string; name?: string; plan?: 'trial' | 'standard'; roles?: readonly Role[]; branchNames?: readonly string[] },
): Promise<PharmacyFixture> {
  const roles = options.roles ?? ['owner'];
  const owner = await createUser(db, { email: `owner@${options.id}.test`, name: `Owner ${options.id}` });
  const created = await db.transaction({ pharmacyId: options.id }, (q) =>
    createPharmacy(q, {
      id: options.id,
      name: options.name ?? `Pharmacy ${options.id}`,
      ownerUserId: owner.id,
      plan: options.plan ?? 'standard',
      isDemo: roles.includes('demo'),
      branchNames: options.branchNames ?? ['Main Branch', 'Second Branch'],
      now: new Date(),
    }),
  );
  const users: Record<string, FixtureUser> = { owner };
  for (const role of roles) {
    if (role === 'owner') continue;
    const user = await createUser(db, { email: `${role}@${options.id}.test`, name: `${role} ${options.id}` });
    await db.owner.query(
      `INSERT INTO memberships (pharmacy_id, user_id, role, has_pos_access, default_branch_id) VALUES ($1, $2, $3, $4, $5)`,
      [created.pharmacyId, user.id, role, role === 'cashier', created.branches[0]?.id ?? null],
    );
    users[role] = user;
  }
  // The staff above are written directly, without taking plan places: the usage counters follow the rows.
  await db.transaction({ pharmacyId: created.pharmacyId }, (q) => recountPlanUsage(q, created.pharmacyId));
  return { pharmacyId: created.pharmacyId, branches: created.branches, users };
}

/**
 * Every uuid id of every tenant table for one pharmacy, by table: the ids another tenant will try.
 * Tables are found in information_schema (a pharmacy_id column and a uuid id column), so new modules'
 * tables are covered without changes here. Membership user ids are listed under 'memberships'.
 */
export async function otherTenantIds(db: Database, pharmacyId: string): Promise<Record<string, string[]>> {
  const tables = await db.owner.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
      WHERE c.table_schema = 'public' AND c.column_name = 'id' AND c.data_type = 'uuid'
        AND EXISTS (SELECT 1 FROM information_schema.columns p
                     WHERE p.table_schema = 'public' AND p.table_name = c.table_name AND p.column_name = 'pharmacy_id')
      ORDER BY c.table_name`,
  );
  const result: Record<string, string[]> = {};
  for (const { table_name } of tables) {
    const rows = await db.owner.query<{ id: string }>(`SELECT id::text AS id FROM "${table_name}" WHERE pharmacy_id = $1`, [pharmacyId]);
    if (rows.length) result[table_name] = rows.map((r) => r.id);
  }
  const members = await db.owner.query<{ id: string }>(`SELECT user_id::text AS id FROM memberships WHERE pharmacy_id = $1`, [pharmacyId]);
  if (members.length) result.memberships = members.map((r) => r.id);
  return result;
}
