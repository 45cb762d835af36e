import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { loginAs } from './platform-helpers.ts';

/**
 * The product list's search and filters on tables never analyzed (no statistics, as on a PostgreSQL server without
 * autovacuum or PGlite before its first maintenance pass), with two pharmacies holding the same names: each sees
 * its own products only, counts are right, the status filter and the sorts read the branch's row (decision 0063).
 */
for (const kind of testDatabaseKinds()) {
  describe(`product search on ${kind}`, () => {
    let t: TestApp;
    let a: PharmacyFixture;
    let b: PharmacyFixture;
    let owner: TestClient;
    const NAMES = ['Amoxicillin 500mg Syrup', 'Amoxicillin 250mg Capsules', 'Paracetamol 500mg Tablets', 'Paracetamol Syrup 100ml', 'Zinc 20mg Tablets'];

    async function seed(ph: PharmacyFixture, quantities: number[]): Promise<void> {
      const main = ph.branches[0]!.id;
      for (const [i, name] of NAMES.entries()) {
        const [row] = await t.db.owner.query<{ id: string }>(
          `INSERT INTO products (pharmacy_id, name, sku, barcodes, low_stock_threshold) VALUES ($1, $2, $3, $4, 5) RETURNING id`,
          [ph.pharmacyId, name, `SKU-${ph.pharmacyId}-${i}`, [`616${i}${ph.pharmacyId.length}`]],
        );
        // The last product has no row in the branch (it shows with zero stock).
        if (i < NAMES.length - 1) {
          await t.db.owner.query(
            `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, purchase_price_cents, quantity) VALUES ($1, $2, $3, $4, 100, $5)`,
            [ph.pharmacyId, main, row!.id, 1000 + i * 100, quantities[i]],
          );
        }
      }
    }

    beforeAll(async () => {
      t = await createTestApp(kind);
      a = await createPharmacyWithStaff(t.db, { id: `search_a_${kind}`, plan: 'standard' });
      b = await createPharmacyWithStaff(t.db, { id: `search_b_${kind}`, plan: 'standard' });
      await seed(a, [3, 50, 2, 0]);
      await seed(b, [1, 1, 1, 1]);
      owner = await loginAs(t, a.users.owner!.email);
    });
    afterAll(async () => t?.close());

    const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

    it("finds every word in the pharmacy's own products only, with the right total", async () => {
      const res = await owner.get('/api/products?q=amox');
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(['Amoxicillin 250mg Capsules', 'Amoxicillin 500mg Syrup']);
      expect(res.body.total).toBe(2);
      const two = await owner.get(`/api/products?q=${encodeURIComponent('500mg syrup')}`);
      expect(names(two.body)).toEqual(['Amoxicillin 500mg Syrup']);
      expect(two.body.total).toBe(1);
      const sku = await owner.get(`/api/products?q=SKU-${b.pharmacyId}`);
      expect(sku.body).toMatchObject({ items: [], total: 0 });
    });

    it('filters by stock status in the branch and sorts by quantity within a search', async () => {
      const low = await owner.get('/api/products?q=a&status=low');
      expect(names(low.body)).toEqual(['Amoxicillin 500mg Syrup', 'Paracetamol 500mg Tablets']);
      expect(low.body.total).toBe(2);
      const out = await owner.get('/api/products?status=out');
      expect(names(out.body).sort()).toEqual(['Paracetamol Syrup 100ml', 'Zinc 20mg Tablets']);
      const byQuantity = await owner.get('/api/products?q=amox&sort=quantity&order=desc');
      expect(byQuantity.body.items.map((i: { quantity: number }) => i.quantity)).toEqual([50, 3]);
      const byPrice = await owner.get('/api/products?q=para&sort=price');
      expect(byPrice.body.items.map((i: { sellingPriceCents: number }) => i.sellingPriceCents)).toEqual([1200, 1300]);
    });

    it('counts a page past the end of a filtered and of an unfiltered list', async () => {
      const past = await owner.get('/api/products?q=a&status=low&offset=10');
      expect(past.body).toMatchObject({ items: [], total: 2 });
      const pastAll = await owner.get('/api/products?offset=10');
      expect(pastAll.body).toMatchObject({ items: [], total: NAMES.length });
      const first = await owner.get('/api/products?limit=2');
      expect(first.body.total).toBe(NAMES.length);
      expect(names(first.body)).toEqual(['Amoxicillin 250mg Capsules', 'Amoxicillin 500mg Syrup']);
      expect(first.body.items[1]).toMatchObject({ quantity: 3, sellingPriceCents: 1000, status: 'low' });
    });

    it('reads all the words in one call of product_search (migration 0034): wildcards are literal, filters and sorts apply to its matches', async () => {
      const c = await createPharmacyWithStaff(t.db, { id: `search_c_${kind}`, plan: 'standard' });
      const rows: [string, string, string, string, boolean, boolean][] = [
        ['Cough Syrup 50% Sugar-free', 'CS-1', '6161001', 'Syrups', false, true],
        ['Cough Syrup 500ml', 'CS-2', '6161002', 'Syrups', true, true],
        ['Cough Lozenges', 'CL-1', '6161003', 'Lozenges', false, false],
        ['Zinc 50mg', 'ZN-1', '5050505', 'Supplements', false, true],
      ];
      for (const [name, sku, barcode, category, dda, active] of rows) {
        await t.db.owner.query(`INSERT INTO products (pharmacy_id, name, sku, barcodes, category, is_dda, is_active) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          c.pharmacyId,
          name,
          sku,
          [barcode],
          category,
          dda,
          active,
        ]);
      }
      const client = await loginAs(t, c.users.owner!.email);
      const search = async (query: string) => {
        const res = await client.get(`/api/products?${query}`);
        expect(res.status).toBe(200);
        return { names: names(res.body), total: res.body.total as number };
      };
      // '%' and '_' are literal: '50%' is not '50' followed by anything.
      expect(await search('q=50%25')).toEqual({ names: ['Cough Syrup 50% Sugar-free'], total: 1 });
      expect(await search('q=s_rup')).toEqual({ names: [], total: 0 });
      // Every word, in any order, in the name, the SKU or a barcode.
      expect(await search(`q=${encodeURIComponent('syrup cough')}`)).toEqual({ names: ['Cough Syrup 50% Sugar-free', 'Cough Syrup 500ml'], total: 2 });
      expect(await search(`q=${encodeURIComponent('cough cs-2')}`)).toEqual({ names: ['Cough Syrup 500ml'], total: 1 });
      expect(await search('q=5050505')).toEqual({ names: ['Zinc 50mg'], total: 1 });
      expect(await search(`q=${encodeURIComponent('cough zinc')}`)).toEqual({ names: [], total: 0 });
      // The other filters and the sorts read the function's columns.
      expect(await search(`q=${encodeURIComponent('cough syrup')}&category=syrups&dda=true`)).toEqual({ names: ['Cough Syrup 500ml'], total: 1 });
      expect(await search('q=cough&active=false')).toEqual({ names: ['Cough Lozenges'], total: 1 });
      expect((await search('q=cough&sort=sku&order=desc')).names).toEqual(['Cough Syrup 500ml', 'Cough Syrup 50% Sugar-free', 'Cough Lozenges']);
      // A page past the end of a search is counted through the same function.
      expect(await search(`q=${encodeURIComponent('cough syrup')}&offset=10`)).toEqual({ names: [], total: 2 });

      // The function itself, as the application role: the tenant that is set, never another, nothing without one.
      const direct = (pharmacyId: string | null, patterns: string[]) =>
        t.db.transaction({ pharmacyId }, (q) => q.query<{ name: string }>(`SELECT name FROM product_search($1::text[]) ORDER BY name`, [patterns]));
      expect((await direct(c.pharmacyId, ['%cough%', '%syrup%'])).map((r) => r.name)).toEqual(['Cough Syrup 50% Sugar-free', 'Cough Syrup 500ml']);
      expect(await direct(a.pharmacyId, ['%cough%'])).toEqual([]);
      expect((await direct(a.pharmacyId, ['%amox%'])).map((r) => r.name)).toEqual(['Amoxicillin 250mg Capsules', 'Amoxicillin 500mg Syrup']);
      expect(await direct(null, ['%cough%'])).toEqual([]);
      expect(await direct(c.pharmacyId, [])).toHaveLength(rows.length);
    });

    it("reads the branch's rows inside product_search_in_branch (migration 0038): status and quantity sort per branch, tenant and branch checked", async () => {
      const main = a.branches[0]!.id;
      const [second] = await t.db.owner.query<{ id: string }>(`INSERT INTO branches (pharmacy_id, name) VALUES ($1, 'Search Test Branch') RETURNING id`, [a.pharmacyId]);
      const [amox] = await t.db.owner.query<{ id: string }>(`SELECT id FROM products WHERE pharmacy_id = $1 AND name = 'Amoxicillin 250mg Capsules'`, [a.pharmacyId]);
      // In the second branch the capsules are low by the branch's own threshold (60), the rest have no row (out).
      await t.db.owner.query(
        `INSERT INTO branch_products (pharmacy_id, branch_id, product_id, selling_price_cents, quantity, low_stock_threshold) VALUES ($1, $2, $3, 900, 50, 60)`,
        [a.pharmacyId, second!.id, amox!.id],
      );
      const list = async (query: string) => {
        const res = await owner.get(`/api/products?${query}`);
        expect(res.status).toBe(200);
        return { names: names(res.body), total: res.body.total as number };
      };
      expect(await list(`q=amox&status=low&branchId=${second!.id}`)).toEqual({ names: ['Amoxicillin 250mg Capsules'], total: 1 });
      expect(await list(`q=amox&status=good&branchId=${second!.id}`)).toEqual({ names: [], total: 0 });
      expect(await list(`q=amox&status=good&branchId=${main}`)).toEqual({ names: ['Amoxicillin 250mg Capsules'], total: 1 });
      expect(await list(`status=out&branchId=${second!.id}`)).toEqual({ names: NAMES.filter((n) => n !== 'Amoxicillin 250mg Capsules').sort(), total: NAMES.length - 1 });
      expect(await list(`status=low&offset=5&branchId=${second!.id}`)).toEqual({ names: [], total: 1 });
      expect((await list(`q=a&sort=price&order=desc&branchId=${second!.id}`)).names[0]).toBe('Amoxicillin 250mg Capsules');

      // The function itself, as the application role: the tenant's own branch only; another pharmacy's branch, or
      // no tenant, gives nothing.
      type Row = { name: string; bp_quantity: number | null; bp_selling_price_cents: number | null; bp_low_stock_threshold: number | null };
      const direct = (pharmacyId: string | null, patterns: string[], branch: string) =>
        t.db.transaction({ pharmacyId }, (q) =>
          q.query<Row>(
            `SELECT name, bp_quantity, bp_selling_price_cents, bp_low_stock_threshold FROM product_search_in_branch($1::text[], $2) ORDER BY name`,
            [patterns, branch],
          ),
        );
      expect(await direct(a.pharmacyId, ['%amox%'], second!.id)).toEqual([
        { name: 'Amoxicillin 250mg Capsules', bp_quantity: 50, bp_selling_price_cents: 900, bp_low_stock_threshold: 60 },
        { name: 'Amoxicillin 500mg Syrup', bp_quantity: null, bp_selling_price_cents: null, bp_low_stock_threshold: null },
      ]);
      expect((await direct(a.pharmacyId, [], main)).map((r) => r.bp_quantity)).toHaveLength(NAMES.length);
      expect(await direct(a.pharmacyId, ['%amox%'], b.branches[0]!.id)).toEqual([]);
      expect(await direct(b.pharmacyId, ['%amox%'], main)).toEqual([]);
      expect(await direct(null, ['%amox%'], main)).toEqual([]);
      expect((await direct(b.pharmacyId, ['%amox%'], b.branches[0]!.id)).map((r) => r.bp_quantity)).toEqual([1, 1]);
      // The status kept inside the function, by the list's rule; an unknown status is refused.
      const withStatus = (patterns: string[], branch: string, status: string) =>
        t.db.transaction({ pharmacyId: a.pharmacyId }, (q) =>
          q.query<{ name: string }>(`SELECT name FROM product_search_in_branch($1::text[], $2, $3) ORDER BY name`, [patterns, branch, status]),
        );
      expect((await withStatus(['%amox%'], second!.id, 'low')).map((r) => r.name)).toEqual(['Amoxicillin 250mg Capsules']);
      expect((await withStatus(['%amox%'], second!.id, 'out')).map((r) => r.name)).toEqual(['Amoxicillin 500mg Syrup']);
      expect((await withStatus([], main, 'low')).map((r) => r.name)).toEqual(['Amoxicillin 500mg Syrup', 'Paracetamol 500mg Tablets']);
      expect((await withStatus([], main, 'good')).map((r) => r.name)).toEqual(['Amoxicillin 250mg Capsules']);
      await expect(withStatus([], main, 'lowish')).rejects.toThrow(/unknown status/);
    });

    it('lists the products low or out of stock from the stock alerts and the inactive products, as the search of every product says (decision 0075)', async () => {
      const branches = await t.db.owner.query<{ id: string }>(`SELECT id FROM branches WHERE pharmacy_id = $1 ORDER BY name`, [a.pharmacyId]);
      expect(branches.length).toBeGreaterThan(1);
      // An inactive product that is low in the main branch and one that is out: the screen's default (active
      // products) leaves them out; 'All' and 'Inactive' show them.
      await t.db.owner.query(`UPDATE products SET is_active = false WHERE pharmacy_id = $1 AND name IN ('Paracetamol 500mg Tablets', 'Zinc 20mg Tablets')`, [a.pharmacyId]);
      try {
        type Item = { name: string; isActive: boolean; quantity: number; status: string };
        const shape = (items: Item[]) => items.map((i) => [i.name, i.isActive, i.quantity, i.status]);
        for (const { id: branchId } of branches) {
          for (const status of ['low', 'out'] as const) {
            for (const active of ['&active=true', '&active=false', '']) {
              for (const [sort, order] of [['name', 'asc'], ['quantity', 'desc'], ['price', 'asc'], ['sku', 'desc']] as const) {
                const base = `status=${status}&sort=${sort}&order=${order}&branchId=${branchId}&limit=100${active}`;
                // Every name contains an 'a': the search gives every product, its status worked out match by match.
                const fromAlerts = await owner.get(`/api/products?${base}`);
                const everyProduct = await owner.get(`/api/products?q=a&${base}`);
                expect(fromAlerts.status).toBe(200);
                expect(everyProduct.status).toBe(200);
                expect(shape(fromAlerts.body.items), base).toEqual(shape(everyProduct.body.items));
                expect(fromAlerts.body.total, base).toBe(everyProduct.body.total);
                const second = await owner.get(`/api/products?${base.replace('limit=100', 'limit=1&offset=1')}`);
                expect(shape(second.body.items), base).toEqual(shape(everyProduct.body.items).slice(1, 2));
              }
            }
          }
        }
        const main = a.branches[0]!.id;
        expect(names((await owner.get(`/api/products?status=low&active=true&branchId=${main}`)).body)).toEqual(['Amoxicillin 500mg Syrup']);
        expect(names((await owner.get(`/api/products?status=low&active=false&branchId=${main}`)).body)).toEqual(['Paracetamol 500mg Tablets']);
        expect(names((await owner.get(`/api/products?status=out&branchId=${main}`)).body)).toEqual(['Paracetamol Syrup 100ml', 'Zinc 20mg Tablets']);
      } finally {
        await t.db.owner.query(`UPDATE products SET is_active = true WHERE pharmacy_id = $1`, [a.pharmacyId]);
      }
    });
  });
}
