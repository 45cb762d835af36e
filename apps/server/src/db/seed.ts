import type { Database, Queryable } from './database.ts';
import { hashPassword } from '../platform/passwords.ts';
import { recountPlanUsage } from '../modules/subscription/subscription.service.ts';
import { createPharmacy } from '../modules/tenancy/pharmacy.service.ts';
import { seedDemoBusiness } from './demo-business.ts';
import { seedDemoCatalogue } from './demo-catalogue.ts';

/** The shared demo pharmacy every visitor of the demo sees (seed 000 section 9). */
export const DEMO_PHARMACY_ID = 'demo_pharmacy_shared';
/** A second pharmacy on a trial, so the trial's limits can be seen. */
export const TRIAL_PHARMACY_ID = 'uzima_chemists';
/** The password of every seeded user. */
export const SEEDED_PASSWORD = 'Pharma#2026';

export interface SeededUser {
  /** A key for the user: the role for Afya Bora's staff, 'demo', 'operator', 'trialOwner'. */
  key: string;
  role: string;
  email: string;
  name: string;
  password: string;
  /** The pharmacy the user works in; null for the platform operator. */
  pharmacyId: string | null;
}

/** Every seeded sign-in (also used by the end-to-end tests and the README). */
export const SEEDED_USERS: readonly SeededUser[] = [
  { key: 'owner', role: 'owner', email: 'owner@afyabora.test', name: 'Grace Wanjiku', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'admin', role: 'admin', email: 'admin@afyabora.test', name: 'Peter Otieno', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'manager', role: 'manager', email: 'manager@afyabora.test', name: 'Mary Achieng', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'cashier', role: 'cashier', email: 'cashier@afyabora.test', name: 'John Kamau', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'inventory', role: 'inventory', email: 'inventory@afyabora.test', name: 'Faith Njeri', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'accounts', role: 'accounts', email: 'accounts@afyabora.test', name: 'Samuel Kiprop', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'staff', role: 'staff', email: 'staff@afyabora.test', name: 'Ann Mwende', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'user', role: 'user', email: 'user@afyabora.test', name: 'David Mutua', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'demo', role: 'demo', email: 'demo@pharmapoint.test', name: 'Demo Visitor', password: SEEDED_PASSWORD, pharmacyId: DEMO_PHARMACY_ID },
  { key: 'operator', role: 'platform operator', email: 'operator@pharmapoint.test', name: 'Platform Operator', password: SEEDED_PASSWORD, pharmacyId: null },
  { key: 'trialOwner', role: 'owner (trial)', email: 'owner@uzimachemists.test', name: 'Joseph Mwangi', password: SEEDED_PASSWORD, pharmacyId: TRIAL_PHARMACY_ID },
];

/** The seeded sign-ins as a printable table (role, email, password). */
export const SEEDED_USERS_TABLE: string = (() => {
  const rows = [['Role', 'Email', 'Password', 'Pharmacy'], ...SEEDED_USERS.map((u) => [u.role, u.email, u.password, u.pharmacyId ?? '(platform)'])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
})();

export interface SeededIds {
  pharmacyId: string;
  branches: { id: string; name: string }[];
  /** Seeded users by key (see SeededUser.key). */
  users: Record<string, { id: string; email: string; name: string; role: string }>;
}

/** Seeders of other modules (the catalogue, stock...), run after the platform data on a fresh seed. */
/** Seeders of later modules (sales, purchases ...): they run in the seed's one transaction, with the demo pharmacy as tenant. */
export const demoSeeders: Array<(q: Queryable, ids: SeededIds) => Promise<void>> = [];

async function insertUser(q: Queryable, user: SeededUser, passwordHash: string, now: Date): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO users (email, name, password_hash, email_verified_at, is_platform_operator) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [user.email, user.name, passwordHash, now, user.key === 'operator'],
  );
  if (!row) throw new Error(`could not seed ${user.email}`);
  return row.id;
}

/**
 * Seeds the demo data once: Afya Bora Pharmacy (demo_pharmacy_shared, standard plan, two branches) with one
 * user per role, the demo visitor, the platform operator, and Uzima Chemists on a trial; its catalogue, and its back
 * office (suppliers, customers, purchases, payments, returns and a few days of sales: demo-business.ts). Does nothing when the
 * demo pharmacy exists; returns whether it seeded. Other modules' demoSeeders run afterwards. All of it is ONE
 * transaction: a crash (or kill) midway leaves nothing, and the next start seeds everything again (issue 7 item 8).
 */
export async function seedDemoData(db: Database, now: Date = new Date()): Promise<boolean> {
  // Every start after the first: one cheap query, not an argon2 hash (about 0.1-0.5 s) for nothing.
  const seededBefore = await db.owner.query(`SELECT 1 FROM pharmacies WHERE id = $1`, [DEMO_PHARMACY_ID]);
  if (seededBefore.length) return false;
  const passwordHash = await hashPassword(SEEDED_PASSWORD);
  const ids = await db.transaction({}, async (q): Promise<SeededIds | null> => {
    // Two servers starting on one database must not both seed.
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('pharmapoint:seed'))`);
    const existing = await q.query(`SELECT 1 FROM pharmacies WHERE id = $1`, [DEMO_PHARMACY_ID]);
    if (existing.length) return null;

    const users: SeededIds['users'] = {};
    for (const user of SEEDED_USERS) {
      users[user.key] = { id: await insertUser(q, user, passwordHash, now), email: user.email, name: user.name, role: user.role };
    }
    const owner = users.owner!;
    const demo = await createPharmacy(q, {
      id: DEMO_PHARMACY_ID,
      name: 'Afya Bora Pharmacy',
      ownerUserId: owner.id,
      branchNames: ['Main Branch', 'Westlands Branch'],
      plan: 'standard',
      isDemo: true,
      now,
    });
    const main = demo.branches[0]!;
    for (const user of SEEDED_USERS) {
      if (user.pharmacyId !== DEMO_PHARMACY_ID || user.key === 'owner') continue;
      const isCashier = user.key === 'cashier';
      await q.query(
        `INSERT INTO memberships (pharmacy_id, user_id, role, allowed_branch_ids, default_branch_id, has_pos_access, invited_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [DEMO_PHARMACY_ID, users[user.key]!.id, user.role, isCashier ? [main.id] : null, main.id, isCashier, owner.id],
      );
    }
    await createPharmacy(q, { id: TRIAL_PHARMACY_ID, name: 'Uzima Chemists', ownerUserId: users.trialOwner!.id, plan: 'trial', now });
    const seeded: SeededIds = { pharmacyId: DEMO_PHARMACY_ID, branches: demo.branches, users };
    // The catalogue and later modules' data belong to the demo pharmacy: make it the tenant again.
    await q.query(`SELECT set_config('app.pharmacy_id', $1, true)`, [DEMO_PHARMACY_ID]);
    await seedDemoCatalogue(q, seeded, now);
    // Suppliers, customers, purchases, supplier payments, a purchase return, four days of sales with a refund and a
    // credit customer's payment, through the use cases (so the back office's screens are not empty).
    await seedDemoBusiness(q, seeded, now);
    for (const seeder of demoSeeders) await seeder(q, seeded);
    // The staff and catalogue above are written in bulk, without taking plan places: the counters follow the rows.
    await recountPlanUsage(q, DEMO_PHARMACY_ID);
    return seeded;
  });
  return ids !== null;
}
