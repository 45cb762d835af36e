import { checkLimit, type LimitedResource, type SubscriptionRecord } from '@pharmapoint/domain/subscription';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertWithinPlanLimit } from '../src/modules/subscription/subscription.service.ts';
import { AppError, raisedAppError } from '../src/platform/errors.ts';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff } from './fixtures.ts';

/**
 * take_plan_places (migration 0041, decision 0080) decides in SQL what the domain's checkLimit decides in
 * TypeScript (packages/domain/src/subscription.ts): for every kind of subscription around its ends (trial, licence,
 * hosting, inactive, sub-millisecond instants) and usage around the limit, the statement refuses exactly when the
 * domain does, with the same code, limit and usage, and takes the places exactly when the domain allows them.
 */
describe.each(testDatabaseKinds())('take_plan_places follows the domain on %s', (kind) => {
  let t: TestApp;
  const pharmacyId = 'h3_plan_places';
  beforeAll(async () => {
    t = await createTestApp(kind);
    await createPharmacyWithStaff(t.db, { id: pharmacyId, plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
  });
  afterAll(async () => t?.close());

  const now = new Date('2026-03-10T12:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms);
  const DAY = 86_400_000;
  type Row = { status: 'trial' | 'active' | 'inactive'; trialEnd: string | null; end: string | null; hosting: string | null };
  const iso = (ms: number) => at(ms).toISOString();
  // Instants stored with microseconds: the server reads them at millisecond precision (0.0005 s after now is now).
  const micro = (ms: number, extra: string) => at(ms).toISOString().replace('Z', `${extra}+00`);
  const subscriptions: Row[] = [
    { status: 'trial', trialEnd: iso(DAY), end: iso(DAY), hosting: null },
    { status: 'trial', trialEnd: iso(0), end: iso(0), hosting: null },
    { status: 'trial', trialEnd: iso(-1), end: iso(-1), hosting: null },
    { status: 'trial', trialEnd: micro(0, '500'), end: null, hosting: null },
    { status: 'trial', trialEnd: micro(-1, '900'), end: null, hosting: null },
    { status: 'trial', trialEnd: null, end: iso(DAY), hosting: null },
    { status: 'trial', trialEnd: null, end: null, hosting: iso(DAY) },
    { status: 'trial', trialEnd: iso(-DAY), end: iso(-DAY), hosting: iso(DAY) },
    { status: 'active', trialEnd: null, end: null, hosting: iso(DAY) },
    { status: 'active', trialEnd: null, end: null, hosting: iso(1) },
    { status: 'active', trialEnd: null, end: null, hosting: iso(0) },
    { status: 'active', trialEnd: null, end: null, hosting: micro(0, '500') },
    { status: 'active', trialEnd: null, end: null, hosting: micro(1, '100') },
    { status: 'active', trialEnd: null, end: null, hosting: null },
    { status: 'active', trialEnd: iso(DAY), end: null, hosting: iso(-DAY) },
    { status: 'inactive', trialEnd: iso(DAY), end: iso(DAY), hosting: iso(DAY) },
  ];

  async function setState(row: Row, limit: number, usage: number): Promise<SubscriptionRecord> {
    await t.db.owner.query(
      `UPDATE subscriptions SET status = $2, trial_end_date = $3, end_date = $4, hosting_paid_until = $5,
              max_products = $6, max_transactions = $6, max_users = $6, max_branches = $6 WHERE pharmacy_id = $1`,
      [pharmacyId, row.status, row.trialEnd, row.end, row.hosting, limit],
    );
    await t.db.owner.query(`UPDATE usage_counters SET products = $2, transactions = $2, users = $2, branches = $2 WHERE pharmacy_id = $1`, [pharmacyId, usage]);
    // The record as the server reads it (the column parsers: instants at millisecond precision).
    const [stored] = await t.db.owner.query<{ status: Row['status']; trial_end_date: string | null; end_date: string | null; hosting_paid_until: string | null; start_date: string }>(
      `SELECT status, trial_end_date, end_date, hosting_paid_until, start_date FROM subscriptions WHERE pharmacy_id = $1`,
      [pharmacyId],
    );
    const date = (v: string | null) => (v === null ? null : new Date(v));
    return {
      planId: row.status === 'trial' ? 'trial' : 'standard',
      status: stored!.status,
      startDate: new Date(stored!.start_date),
      trialEndDate: date(stored!.trial_end_date),
      endDate: date(stored!.end_date),
      hostingPaidUntil: date(stored!.hosting_paid_until),
      maxProducts: limit,
      maxTransactions: limit,
      maxUsers: limit,
      maxBranches: limit,
    };
  }

  async function usageOf(resource: LimitedResource): Promise<number> {
    const [row] = await t.db.owner.query<{ n: number }>(`SELECT ${resource} AS n FROM usage_counters WHERE pharmacy_id = $1`, [pharmacyId]);
    return row!.n;
  }

  it('refuses and takes exactly as checkLimit, for every subscription state, resource and usage around the limit', async () => {
    let cases = 0;
    for (const row of subscriptions) {
      for (const [limit, usage, requested] of [
        [5, 4, 1],
        [5, 5, 1],
        [5, 3, 3],
        [-1, 1000, 7],
        [5, 5, 0],
      ] as const) {
        for (const resource of ['products', 'transactions', 'users', 'branches'] as const) {
          const sub = await setState(row, limit, usage);
          const expected = checkLimit(sub, { products: usage, transactions: usage, users: usage, branches: usage }, resource, requested, now);
          const outcome = await t.db
            .transaction({ pharmacyId }, (q) => assertWithinPlanLimit(q, { pharmacyId, now }, resource, requested))
            .then(
              () => ({ ok: true as const }),
              (thrown: unknown) => {
                // The refusal comes with COMMIT as the database error, mapped as the error handler maps it.
                const error = thrown instanceof AppError ? thrown : raisedAppError(thrown);
                if (!error) throw thrown;
                return error.code === 'LIMIT_EXCEEDED'
                  ? { ok: false as const, code: error.code, limit: error.values?.limit, usage: error.values?.usage }
                  : { ok: false as const, code: error.code };
              },
            );
          const label = `${JSON.stringify(row)} limit ${limit} usage ${usage} +${requested} ${resource}`;
          expect(outcome, label).toEqual(expected);
          expect(await usageOf(resource), label).toBe(expected.ok ? usage + requested : usage);
          cases++;
        }
      }
    }
    expect(cases).toBe(subscriptions.length * 5 * 4);
  });

  it('a pharmacy without a subscription or counters gets the trial and counters from its rows, as before', async () => {
    await t.db.owner.query(`DELETE FROM subscriptions WHERE pharmacy_id = $1`, [pharmacyId]);
    await t.db.owner.query(`DELETE FROM usage_counters WHERE pharmacy_id = $1`, [pharmacyId]);
    await t.db.owner.query(`INSERT INTO products (pharmacy_id, name) SELECT $1, 'Row ' || g FROM generate_series(1, 3) g`, [pharmacyId]);
    const created = new Date();
    await t.db.transaction({ pharmacyId }, (q) => assertWithinPlanLimit(q, { pharmacyId, now: created }, 'products', 2));
    const [sub] = await t.db.owner.query<Record<string, unknown>>(
      `SELECT plan_id, status, start_date, trial_end_date, end_date, hosting_paid_until, max_products, max_transactions, max_users, max_branches,
              initialized_by, initialization_method FROM subscriptions WHERE pharmacy_id = $1`,
      [pharmacyId],
    );
    const trialEnd = new Date(created.getTime() + 7 * 86_400_000).toISOString();
    expect(sub).toEqual({
      plan_id: 'trial',
      status: 'trial',
      start_date: created.toISOString(),
      trial_end_date: trialEnd,
      end_date: trialEnd,
      hosting_paid_until: null,
      max_products: 50,
      max_transactions: 50,
      max_users: 1,
      max_branches: 1,
      initialized_by: null,
      initialization_method: 'auto_on_read',
    });
    expect(await usageOf('products')).toBe(5);
    // Several calls in one transaction take their places together: refused with the usage before the transaction.
    await t.db.owner.query(`UPDATE usage_counters SET products = 49 WHERE pharmacy_id = $1`, [pharmacyId]);
    const refused = await t.db
      .transaction({ pharmacyId }, async (q) => {
        await assertWithinPlanLimit(q, { pharmacyId, now: created }, 'products', 1);
        await assertWithinPlanLimit(q, { pharmacyId, now: created }, 'products', 1);
      })
      .catch((error: unknown) => raisedAppError(error));
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toBe('Limit exceeded. Plan allows 50, current usage: 49');
    expect(await usageOf('products')).toBe(49);
  });
});
