import { businessDate } from '@pharmapoint/domain/stock';
import type { Database } from '../src/db/database.ts';
import type { RequestContext } from '../src/platform/access.ts';
import type { TestApp } from './app.ts';
import type { TestClient } from './http.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';
import { seededRandom } from '../src/db/demo-catalogue.ts';

/** A pharmacy for the products and stock tests: a paid, hosted standard plan (unlimited), branches and one user per role. */
export async function stockTestPharmacy(
  db: Database,
  id: string,
  roles: readonly string[] = ['owner', 'manager', 'inventory', 'cashier', 'demo'],
): Promise<StockPharmacy> {
  const pharmacy = await stockPharmacy(db, id, { roles, branchNames: ['Main Branch', 'Westlands Branch'] });
  await db.owner.query(`UPDATE subscriptions SET hosting_paid_until = now() + interval '1 year' WHERE pharmacy_id = $1`, [id]);
  return pharmacy;
}

/** Signed-in clients per role of the pharmacy, working in its first branch. */
export async function clientsOf(t: TestApp, pharmacy: StockPharmacy): Promise<Record<string, TestClient>> {
  const clients: Record<string, TestClient> = {};
  for (const [role, userId] of Object.entries(pharmacy.users)) {
    clients[role] = await signedInClient(t, userId, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
  }
  return clients;
}

/** A request context of an owner (every permission) for calling services directly. */
export function ownerContext(pharmacy: StockPharmacy, branchIndex = 0): RequestContext {
  return {
    pharmacyId: pharmacy.pharmacyId,
    branchId: pharmacy.branches[branchIndex]!.id,
    userId: pharmacy.users.owner!,
    permissions: ['*'],
    subject: { role: 'owner', isOwner: true },
    membership: { role: 'owner', permissions: null, allowedBranchIds: null, defaultBranchId: null, hasPosAccess: true, isOwner: true },
    isDemo: false,
    visibleBranchIds: null,
    now: new Date(),
  };
}

/** The time zone of the test pharmacies (the settings' default). */
export const TEST_TIME_ZONE = 'Africa/Nairobi';

/** A context for the ledger: the request context with the pharmacy's business date at its clock. */
export function withToday<C extends { now: Date }>(ctx: C, timeZone: string = TEST_TIME_ZONE): C & { today: string } {
  return { ...ctx, today: businessDate(ctx.now, timeZone) };
}

/** A business date `days` from today in the test pharmacies' time zone (tests keep a margin of days around today). */
export function daysFromToday(days: number): string {
  // The pharmacy's business day (Africa/Nairobi), as the server counts days to expiry: between 21:00 and 24:00 UTC
  // it is already tomorrow in Nairobi.
  const today = businessDate(new Date(), TEST_TIME_ZONE);
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Every way the ledger can disagree with the stock on hand, for a pharmacy: per branch and product,
 * quantity + reserved vs the batches and vs the movements; per batch, its quantity + reserved vs its movements;
 * anything negative; a movement whose quantity_after is negative; a movement whose quantity_after or
 * batch_quantity_after is not the running total in ledger order (sequence). Empty when all is well.
 */
export async function ledgerProblems(db: Database, pharmacyId: string): Promise<unknown[]> {
  const perProduct = await db.owner.query(
    `WITH b AS (SELECT branch_id, product_id, sum(quantity + reserved_quantity)::bigint AS q FROM batches WHERE pharmacy_id = $1 GROUP BY 1, 2),
          m AS (SELECT branch_id, product_id, sum(delta)::bigint AS q FROM stock_movements WHERE pharmacy_id = $1 GROUP BY 1, 2)
     SELECT 'branch' AS problem, bp.branch_id, bp.product_id, bp.quantity, bp.reserved_quantity, b.q AS batches, m.q AS movements
       FROM branch_products bp
       LEFT JOIN b ON b.branch_id = bp.branch_id AND b.product_id = bp.product_id
       LEFT JOIN m ON m.branch_id = bp.branch_id AND m.product_id = bp.product_id
      WHERE bp.pharmacy_id = $1
        AND (bp.quantity + bp.reserved_quantity <> COALESCE(b.q, 0) OR bp.quantity + bp.reserved_quantity <> COALESCE(m.q, 0)
             OR bp.quantity < 0 OR bp.reserved_quantity < 0)`,
    [pharmacyId],
  );
  const perBatch = await db.owner.query(
    `SELECT 'batch' AS problem, b.id, b.quantity, b.reserved_quantity, COALESCE(m.q, 0) AS movements
       FROM batches b
       LEFT JOIN (SELECT batch_id, sum(delta)::bigint AS q FROM stock_movements WHERE pharmacy_id = $1 GROUP BY 1) m ON m.batch_id = b.id
      WHERE b.pharmacy_id = $1 AND (b.quantity + b.reserved_quantity <> COALESCE(m.q, 0) OR b.quantity < 0 OR b.reserved_quantity < 0)`,
    [pharmacyId],
  );
  const negativeAfter = await db.owner.query(
    `SELECT 'movement' AS problem, id, quantity_after FROM stock_movements WHERE pharmacy_id = $1 AND (quantity_after < 0 OR batch_id IS NULL)`,
    [pharmacyId],
  );
  // The ledger's order: read by sequence, every movement's quantity_after is the running total of its branch and
  // product, and its batch_quantity_after the running total of its batch.
  const outOfOrder = await db.owner.query(
    `SELECT 'order' AS problem, id, sequence, quantity_after, branch_running, batch_quantity_after, batch_running
       FROM (SELECT id, sequence, quantity_after, batch_quantity_after,
                    sum(delta) OVER (PARTITION BY branch_id, product_id ORDER BY sequence) AS branch_running,
                    sum(delta) OVER (PARTITION BY batch_id ORDER BY sequence) AS batch_running
               FROM stock_movements WHERE pharmacy_id = $1) m
      WHERE quantity_after <> branch_running OR batch_quantity_after IS DISTINCT FROM batch_running`,
    [pharmacyId],
  );
  return [...perProduct, ...perBatch, ...negativeAfter, ...outOfOrder];
}

/**
 * Pairs where stock_alerts and the rows disagree (every active product x branch, a missing branch row counting as
 * out). Empty when all is well.
 */
export async function alertsDrift(db: Database, pharmacyId: string): Promise<unknown[]> {
  return db.owner.query(
    `WITH truth AS (
       SELECT b.id AS branch_id, x.id AS product_id, CASE WHEN COALESCE(bp.quantity, 0) <= 0 THEN 'out' ELSE 'low' END AS status, x.name
         FROM branches b
         JOIN products x ON x.pharmacy_id = b.pharmacy_id AND x.is_active
         LEFT JOIN branch_products bp ON bp.pharmacy_id = b.pharmacy_id AND bp.branch_id = b.id AND bp.product_id = x.id
        WHERE b.pharmacy_id = $1 AND COALESCE(bp.quantity, 0) <= COALESCE(bp.low_stock_threshold, x.low_stock_threshold)),
     kept AS (SELECT branch_id, product_id, status, product_name AS name FROM stock_alerts WHERE pharmacy_id = $1)
     (SELECT 'missing' AS drift, * FROM (SELECT * FROM truth EXCEPT SELECT * FROM kept) m)
     UNION ALL
     (SELECT 'extra' AS drift, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM truth) e)`,
    [pharmacyId],
  );
}

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed (the demo catalogue's). */
export const prng = seededRandom;

/** One name of `weights`, drawn with probability proportional to its weight. */
export function pickWeighted<T extends string>(random: () => number, weights: readonly (readonly [T, number])[]): T {
  let roll = random() * weights.reduce((sum, [, w]) => sum + w, 0);
  return (weights.find(([, w]) => (roll -= w) < 0) ?? weights[weights.length - 1]!)[0];
}
