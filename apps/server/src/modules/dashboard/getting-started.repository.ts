import type { GettingStartedSteps } from '@pharmapoint/domain/getting-started';
import type { Queryable } from '../../db/database.ts';

/** Each step of the getting-started checklist as one EXISTS, and the dismissal, in one statement. */
export async function gettingStartedFacts(q: Queryable, pharmacyId: string): Promise<{ steps: GettingStartedSteps; dismissed: boolean }> {
  const [row] = await q.query<Record<keyof GettingStartedSteps | 'dismissed', boolean>>(
    `SELECT
       (EXISTS (SELECT 1 FROM branches WHERE pharmacy_id = $1 AND (COALESCE(address, '') <> '' OR COALESCE(phone, '') <> ''))
        OR (SELECT count(*) FROM branches WHERE pharmacy_id = $1) > 1) AS "branches",
       EXISTS (SELECT 1 FROM contacts WHERE pharmacy_id = $1 AND type = 'supplier') AS "suppliers",
       EXISTS (SELECT 1 FROM products WHERE pharmacy_id = $1) AS "products",
       EXISTS (SELECT 1 FROM batches WHERE pharmacy_id = $1) AS "openingStock",
       (SELECT count(*) FROM memberships WHERE pharmacy_id = $1) > 1 AS "users",
       EXISTS (SELECT 1 FROM settings WHERE pharmacy_id = $1
                 AND (COALESCE(document->>'pharmacyPhone', '') <> '' OR COALESCE(document->>'pharmacyAddress', '') <> ''
                      OR COALESCE(document->>'receiptFooter', '') <> '')) AS "receiptSettings",
       EXISTS (SELECT 1 FROM sales WHERE pharmacy_id = $1) AS "firstSale",
       EXISTS (SELECT 1 FROM getting_started_dismissals WHERE pharmacy_id = $1) AS "dismissed"`,
    [pharmacyId],
  );
  const { dismissed, ...steps } = row!;
  return { steps, dismissed };
}

/** Records the dismissal; a second one keeps the first. */
export async function insertDismissal(q: Queryable, pharmacyId: string, userId: string | null): Promise<void> {
  await q.query(`INSERT INTO getting_started_dismissals (pharmacy_id, dismissed_by) VALUES ($1, $2) ON CONFLICT (pharmacy_id) DO NOTHING`, [pharmacyId, userId]);
}
