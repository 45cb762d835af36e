import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import type { TestClient } from './http.ts';
import type { StockPharmacy } from './import-helpers.ts';
import { clientsOf, daysFromToday, stockTestPharmacy } from './stock-helpers.ts';

/**
 * Expenses kept by hand, changed by several users at the same moment: each void is taken once (the others find it
 * voided), edits and voids of one expense never interleave, and the per-day summary the dashboard reads equals the
 * expenses afterwards.
 */
// PostgreSQL only (row locks between real connections): skipped visibly without TEST_DATABASE_URL.
describe.skipIf(!testDatabaseKinds().includes('postgres'))('expenses under concurrency on postgres', () => {
  let t: TestApp;
  let ph: StockPharmacy;
  let users: TestClient[];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    ph = await stockTestPharmacy(t.db, 'exp_conc', ['owner', 'manager', 'accounts']);
    const c = await clientsOf(t, ph);
    users = [c.owner!, c.manager!, c.accounts!];
  });
  afterAll(async () => t?.close());

  const record = (amountCents: number) =>
    users[0]!.request('POST', '/api/expenses/manual', { description: 'Courier', category: 'Rent', amountCents, date: daysFromToday(-1) }, { 'idempotency-key': randomUUID() });

  it('concurrent voids and edits: each expense voided once, none lost, the summary equals the expenses', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await record(1_000 * (i + 1));
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const ops: Promise<{ status: number; id: string; kind: string }>[] = [];
    for (const [n, id] of ids.entries()) {
      for (let k = 0; k < 6; k++) {
        const who = users[(n + k) % users.length]!;
        const op =
          k % 2 === 0
            ? who.request('POST', `/api/expenses/${id}/void`, { reason: 'Entered twice' }, { 'idempotency-key': randomUUID() })
            : who.put(`/api/expenses/${id}`, { description: 'Corrected', category: k % 3 ? 'Rent' : 'Office Supplies', amountCents: 500 * k, date: daysFromToday(-(k % 3)) });
        ops.push(op.then((r) => ({ status: r.status, id, kind: k % 2 === 0 ? 'void' : 'edit' })));
      }
    }
    const results = await Promise.all(ops);
    for (const id of ids) {
      const voids = results.filter((r) => r.id === id && r.kind === 'void');
      // One void wins; the others, and any edit after it, are refused as voided.
      expect(voids.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.id === id).every((r) => [200, 409].includes(r.status))).toBe(true);
    }
    const [drift] = await t.db.owner.query<{ n: number }>(
      `WITH truth AS (SELECT branch_id, expense_date AS business_day, category, count(*)::int AS expense_count, sum(total_cents)::bigint AS amount_cents
                        FROM expenses WHERE pharmacy_id = $1 AND status = 'approved' AND voided_at IS NULL GROUP BY 1, 2, 3),
            kept AS (SELECT branch_id, business_day, category, expense_count, amount_cents FROM daily_expenses WHERE pharmacy_id = $1 AND expense_count <> 0)
       SELECT count(*)::int AS n FROM ((SELECT * FROM truth EXCEPT SELECT * FROM kept) UNION ALL (SELECT * FROM kept EXCEPT SELECT * FROM truth)) d`,
      [ph.pharmacyId],
    );
    expect(drift!.n).toBe(0);
    const [left] = await t.db.owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM expenses WHERE pharmacy_id = $1 AND voided_at IS NULL`, [ph.pharmacyId]);
    expect(left!.n).toBe(0);
  });
});
