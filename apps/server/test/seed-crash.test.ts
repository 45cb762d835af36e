import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PHARMACY_ID, demoSeeders, seedDemoData } from '../src/db/seed.ts';
import type { Database } from '../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';
import { ledgerProblems } from './stock-helpers.ts';

/**
 * A crash during the very first start (issue 7 item 8): the seed used to run in two transactions, so a crash
 * between them left the demo pharmacy with no products forever (the next start saw the pharmacy and skipped).
 * Now it is one transaction: a failure midway (here a seeder that throws after the catalogue was written, as a
 * kill would) leaves nothing, and the next start seeds everything.
 */
describe.each(testDatabaseKinds())('a seed that dies midway on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => db?.close());

  const count = async (table: string) =>
    Number((await db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE pharmacy_id = $1`, [DEMO_PHARMACY_ID]))[0]!.n);

  it('leaves nothing behind, and the next start seeds the whole catalogue', async () => {
    const crash = async () => {
      throw new Error('the power went off');
    };
    demoSeeders.push(crash);
    try {
      await expect(seedDemoData(db)).rejects.toThrow('the power went off');
    } finally {
      demoSeeders.splice(demoSeeders.indexOf(crash), 1);
    }
    expect(await db.owner.query(`SELECT id FROM pharmacies`)).toEqual([]);
    expect(await db.owner.query(`SELECT id FROM users`)).toEqual([]);

    expect(await seedDemoData(db)).toBe(true);
    expect(await count('products')).toBeGreaterThan(300);
    expect(await count('batches')).toBeGreaterThan(300);
    expect(await ledgerProblems(db, DEMO_PHARMACY_ID)).toEqual([]);
    // And a third start finds it seeded.
    expect(await seedDemoData(db)).toBe(false);
  });
});
