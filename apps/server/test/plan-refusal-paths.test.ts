import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportStreamLine } from '@pharmapoint/domain/product-import';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { signedInClient, stockPharmacy, type StockPharmacy } from './import-helpers.ts';

const HEADER = 'Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA';

/**
 * A plan's refusal reaches every caller as the same AppError, also where the route does not go through the error
 * handler (decision 0080): the streamed CSV import ends with the limit's own error line, not an internal error.
 */
describe.each(testDatabaseKinds())('plan refusals outside the error handler on %s', (kind) => {
  let t: TestApp;
  let pharmacy: StockPharmacy;
  beforeAll(async () => {
    t = await createTestApp(kind);
    pharmacy = await stockPharmacy(t.db, 'h3_refusals', { plan: 'trial', roles: ['owner'], branchNames: ['Main Branch'] });
  });
  afterAll(async () => t?.close());

  it('a streamed import over the trial limit ends with the LIMIT_EXCEEDED line', async () => {
    const owner = await signedInClient(t, pharmacy.users.owner!, pharmacy.pharmacyId, pharmacy.branches[0]!.id);
    await owner.get('/api/subscription');
    const rows = Array.from({ length: 60 }, (_, i) => `Trial product ${i},TP-${i},Medicine,,10,5,1,,,No`);
    const { lines } = await owner.postNdjson<ImportStreamLine>('/api/products/import?mode=valid-only', [HEADER, ...rows].join('\n'));
    expect(lines[lines.length - 1]).toEqual({ type: 'error', error: { code: 'LIMIT_EXCEEDED', message: 'Limit exceeded. Plan allows 50, current usage: 0' } });
  });
});
