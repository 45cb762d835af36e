import type { Database } from '../src/db/database.ts';
import type { TestClient } from './http.ts';
import { daysFromToday } from './stock-helpers.ts';

/**
 * Stock that expired on the shelf, for tests that need it: the API refuses to receive a batch that has already
 * expired (BATCH_EXPIRED, decision 0033), so the batch is received with a future date and then moved `days`
 * into the past as time would (days < 0). Returns the answer of the receipt.
 */
export async function receiveThenExpire(
  db: Database,
  client: TestClient,
  pharmacyId: string,
  productId: string,
  body: { branchId?: string; batchNumber: string; quantity: number; unitCostCents: number },
  days: number,
) {
  const received = await client.post(`/api/products/${productId}/batches`, { ...body, expiryDate: daysFromToday(365) });
  if (received.status === 201) {
    await db.owner.query(`UPDATE batches SET expiry_date = $3::date WHERE pharmacy_id = $1 AND id = $2`, [pharmacyId, received.body.batch.id, daysFromToday(days)]);
    received.body.batch.expiryDate = daysFromToday(days);
  }
  return received;
}
