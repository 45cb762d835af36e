import { describe, expect, it } from 'vitest';
import {
  buildCatalogueIndex,
  decodeCatalogue,
  encodeCatalogue,
  findByCode,
  findCodeInIndex,
  POS_SEARCH_MAX,
  posCatalogueResponseSchema,
  searchCatalogue,
  searchIndex,
  sellableQuantity,
  stockBadgeTone,
  withItems,
  type PosCatalogueItem,
} from './pos-catalogue.ts';

let next = 0;
function item(overrides: Partial<PosCatalogueItem> = {}): PosCatalogueItem {
  next += 1;
  return {
    id: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
    name: `Product ${next}`,
    sku: null,
    barcodes: [],
    category: null,
    packageSize: 1,
    packageType: 'pieces',
    isDda: false,
    isActive: true,
    isAvailable: true,
    taxApplied: false,
    taxRateBasisPoints: null,
    priceCents: 1000,
    costCents: 600,
    minMarginBasisPoints: 2200,
    minimumPriceCents: null,
    quantity: 10,
    reservedQuantity: 0,
    expiredQuantity: 0,
    lowStockThreshold: 5,
    nearestExpiry: null,
    ...overrides,
  };
}

const names = (results: { item: PosCatalogueItem }[]) => results.map((r) => r.item.name);

describe('product search (seed 001 section 5: "Matches name, SKU and category, case-insensitively, in-stock products first, at most 15 results")', () => {
  const panadol = item({ name: 'Panadol Extra', sku: 'PAN-EX', category: 'Analgesics', barcodes: ['6001234567890'] });
  const amoxil = item({ name: 'Amoxil 500mg', sku: 'AMX-500', category: 'Antibiotics' });
  const brufen = item({ name: 'Brufen 400', sku: 'BRU-400', category: 'Analgesics', quantity: 0 });
  const items = [panadol, amoxil, brufen];

  it('matches the name case-insensitively', () => {
    expect(names(searchCatalogue(items, 'pAnAdOl'))).toEqual(['Panadol Extra']);
  });

  it('matches the SKU', () => {
    expect(names(searchCatalogue(items, 'amx-5'))).toEqual(['Amoxil 500mg']);
  });

  it('matches the category, in-stock first', () => {
    expect(names(searchCatalogue(items, 'analgesic'))).toEqual(['Panadol Extra', 'Brufen 400']);
  });

  it('matches the barcode', () => {
    expect(names(searchCatalogue(items, '60012345'))).toEqual(['Panadol Extra']);
  });

  it('matches every word of the query, in any field', () => {
    expect(names(searchCatalogue(items, 'amoxil antibiotics'))).toEqual(['Amoxil 500mg']);
    expect(searchCatalogue(items, 'amoxil analgesics')).toEqual([]);
  });

  it('finds nothing for an empty or blank query', () => {
    expect(searchCatalogue(items, '')).toEqual([]);
    expect(searchCatalogue(items, '   ')).toEqual([]);
  });

  it('does not match across two fields', () => {
    // name 'Panadol Extra' then SKU 'PAN-EX': 'extrapan' is in neither.
    expect(searchCatalogue(items, 'extrapan')).toEqual([]);
  });

  it('puts in-stock products first even when an out-of-stock name sorts first', () => {
    const list = [item({ name: 'Aspirin A', quantity: 0 }), item({ name: 'Aspirin B', quantity: 3 })];
    expect(names(searchCatalogue(list, 'aspirin'))).toEqual(['Aspirin B', 'Aspirin A']);
  });

  it('puts names starting with the query before other matches, then by name', () => {
    const list = [item({ name: 'Zinc and Vitamin C' }), item({ name: 'Vitamin C 1000' }), item({ name: 'Vitamin B' })];
    expect(names(searchCatalogue(list, 'vitamin'))).toEqual(['Vitamin B', 'Vitamin C 1000', 'Zinc and Vitamin C']);
  });

  it('returns at most 15 results', () => {
    const many = Array.from({ length: 40 }, (_, i) => item({ name: `Cough syrup ${String(i).padStart(2, '0')}` }));
    const results = searchCatalogue(many, 'cough');
    expect(POS_SEARCH_MAX).toBe(15);
    expect(results).toHaveLength(15);
    expect(results[0]!.item.name).toBe('Cough syrup 00');
  });

  it('returns fewer when asked, never more than 15', () => {
    const many = Array.from({ length: 40 }, (_, i) => item({ name: `Gauze ${i}` }));
    expect(searchCatalogue(many, 'gauze', { limit: 5 })).toHaveLength(5);
    expect(searchCatalogue(many, 'gauze', { limit: 100 })).toHaveLength(15);
  });

  it('still fills the 15 with in-stock products when out-of-stock ones sort first', () => {
    const out = Array.from({ length: 20 }, (_, i) => item({ name: `Drug A${String(i).padStart(2, '0')}`, quantity: 0 }));
    const inStock = Array.from({ length: 20 }, (_, i) => item({ name: `Drug B${String(i).padStart(2, '0')}` }));
    const results = searchCatalogue([...out, ...inStock], 'drug');
    expect(results).toHaveLength(15);
    expect(results.every((r) => r.item.quantity > 0)).toBe(true);
  });
});

describe('what the search lists (seed 001 section 5: "only active products that have a selling price above 0 and a non-empty name")', () => {
  it('leaves out inactive products', () => {
    expect(searchCatalogue([item({ name: 'Quinine', isActive: false })], 'quinine')).toEqual([]);
  });

  it('leaves out products not sold in the branch', () => {
    expect(searchCatalogue([item({ name: 'Quinine', isAvailable: false })], 'quinine')).toEqual([]);
  });

  it('leaves out products priced at 0', () => {
    expect(searchCatalogue([item({ name: 'Quinine', priceCents: 0 })], 'quinine')).toEqual([]);
  });

  it('leaves out products with a blank name (found by SKU otherwise)', () => {
    expect(searchCatalogue([item({ name: '  ', sku: 'QUI-1' })], 'qui')).toEqual([]);
  });
});

describe('selectability (seed 001 section 5: "cannot be selected if it has no id, price of 0 or less, stock of 0 or less, or is already in the cart")', () => {
  it('is selectable with a price, stock and not in the cart', () => {
    expect(searchCatalogue([item({ name: 'Cetirizine' })], 'cetirizine')[0]).toMatchObject({ selectable: true, reason: null });
  });

  it('is listed but not selectable out of stock', () => {
    expect(searchCatalogue([item({ name: 'Cetirizine', quantity: 0 })], 'cetirizine')[0]).toMatchObject({ selectable: false, reason: 'out-of-stock' });
  });

  it('is listed but not selectable when already in the cart', () => {
    const product = item({ name: 'Cetirizine' });
    expect(searchCatalogue([product], 'cetirizine', { cartIds: new Set([product.id]) })[0]).toMatchObject({ selectable: false, reason: 'in-cart' });
  });

  it('is not selectable without an id', () => {
    expect(searchCatalogue([item({ name: 'Cetirizine', id: '' })], 'cetirizine')[0]).toMatchObject({ selectable: false, reason: 'no-id' });
  });
});

describe('the scanner: findByCode', () => {
  const a = item({ name: 'A', sku: 'SKU-A', barcodes: ['111', '222'] });
  const b = item({ name: 'B', sku: '333', barcodes: ['444'] });
  const c = item({ name: 'C', sku: null, barcodes: ['333'] });
  const items = [a, b, c];

  it('finds by barcode, any of them', () => {
    expect(findByCode(items, '222')).toBe(a);
  });

  it('finds by SKU case-insensitively, ignoring surrounding spaces', () => {
    expect(findByCode(items, ' sku-a ')).toBe(a);
  });

  it('is exact: a part of a code finds nothing', () => {
    expect(findByCode(items, '11')).toBeUndefined();
    expect(findByCode(items, '')).toBeUndefined();
  });

  it("prefers a barcode to another product's SKU", () => {
    expect(findByCode(items, '333')).toBe(c);
  });

  it('finds unlisted products too (the till says why they cannot be sold)', () => {
    const out = item({ sku: 'OUT-1', quantity: 0, priceCents: 0 });
    expect(findByCode([out], 'out-1')).toBe(out);
  });
});

describe('stock badge (seed 001 section 9: "Stock badge turns orange at 5 or fewer units")', () => {
  it('is orange (warning) at 5 and at 1', () => {
    expect(stockBadgeTone(5)).toBe('warning');
    expect(stockBadgeTone(1)).toBe('warning');
  });

  it('is green above 5 and red at 0', () => {
    expect(stockBadgeTone(6)).toBe('success');
    expect(stockBadgeTone(0)).toBe('danger');
  });
});

describe('the index', () => {
  it('answers each keystroke afresh as the query grows and shrinks', () => {
    const items = [item({ name: 'Paracetamol' }), item({ name: 'Panadol' }), item({ name: 'Piriton' })];
    const index = buildCatalogueIndex(items);
    expect(names(searchIndex(index, 'p'))).toEqual(['Panadol', 'Paracetamol', 'Piriton']);
    expect(names(searchIndex(index, 'pa'))).toEqual(['Panadol', 'Paracetamol']);
    expect(names(searchIndex(index, 'par'))).toEqual(['Paracetamol']);
    expect(names(searchIndex(index, 'pi'))).toEqual(['Piriton']);
    expect(names(searchIndex(index, 'p'))).toHaveLength(3);
  });

  it('follows stock changes of a new array of the same products (withItems)', () => {
    const items = [item({ name: 'Omeprazole 20' }), item({ name: 'Omeprazole 40' })];
    const index = buildCatalogueIndex(items);
    expect(names(searchIndex(index, 'omep'))).toEqual(['Omeprazole 20', 'Omeprazole 40']);
    const changed = [{ ...items[0]!, quantity: 0 }, items[1]!];
    const next = withItems(index, changed);
    expect(next.haystacks).toBe(index.haystacks);
    expect(names(searchIndex(next, 'omepr'))).toEqual(['Omeprazole 40', 'Omeprazole 20']);
  });

  it('follows a renamed product and a product that stops being listed', () => {
    const items = [item({ name: 'Old name', sku: 'X-1' }), item({ name: 'Other' })];
    const index = buildCatalogueIndex(items);
    expect(findCodeInIndex(index, 'x-1')).toBe(items[0]);
    const renamed = withItems(index, [{ ...items[0]!, name: 'New name' }, { ...items[1]!, priceCents: 0 }]);
    expect(names(searchIndex(renamed, 'new'))).toEqual(['New name']);
    expect(searchIndex(renamed, 'old')).toEqual([]);
    expect(searchIndex(renamed, 'other')).toEqual([]);
  });
});

describe('wire shape (columnar)', () => {
  it('decodes what it encodes, and the schema accepts it', () => {
    const items = [item({ name: 'Insulin', sku: 'INS', barcodes: ['1', '2'], category: 'Diabetes', nearestExpiry: '2027-01-31', expiredQuantity: 3 }), item()];
    const wire = encodeCatalogue('b1', '2026-01-01T00:00:00.000Z', items);
    expect(posCatalogueResponseSchema.parse(wire)).toEqual(wire);
    expect(decodeCatalogue(wire)).toEqual(items);
  });

  it('refuses columns of the wrong length', () => {
    const wire = encodeCatalogue('b1', '2026-01-01T00:00:00.000Z', [item()]);
    wire.columns.name.push('extra');
    expect(() => decodeCatalogue(wire)).toThrow(/name/);
  });

  it('sellable quantity is the branch quantity less expired pieces, never below 0', () => {
    expect(sellableQuantity(10, 3)).toBe(7);
    expect(sellableQuantity(2, 3)).toBe(0);
    expect(sellableQuantity(4, undefined)).toBe(4);
  });
});

describe('the index answers exactly what the rules say (against a plain filter and sort, random catalogues)', () => {
  /** The rules written plainly: filter every listed product, sort, take 15. */
  function reference(items: PosCatalogueItem[], query: string): string[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return [];
    const whole = words.join(' ');
    const text = (i: PosCatalogueItem) => [i.name, i.sku ?? '', i.category ?? '', ...i.barcodes].map((f) => f.toLowerCase());
    const strong = (i: PosCatalogueItem) =>
      i.name.toLowerCase().startsWith(whole) || i.sku?.toLowerCase() === whole || i.barcodes.some((b) => b.toLowerCase() === whole);
    return items
      .filter((i) => i.isActive && i.isAvailable && i.priceCents > 0 && i.name.trim() !== '')
      .filter((i) => words.every((w) => text(i).some((f) => f.includes(w))))
      .sort((a, b) => {
        const rank = (i: PosCatalogueItem) => (i.quantity > 0 ? 0 : 2) + (strong(i) ? 0 : 1);
        const an = a.name.toLowerCase();
        const bn = b.name.toLowerCase();
        return rank(a) - rank(b) || (an < bn ? -1 : an > bn ? 1 : a.id < b.id ? -1 : 1);
      })
      .slice(0, 15)
      .map((i) => i.id);
  }

  it('gives the same products in the same order for many queries', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const letters = 'abc d';
    const word = (n: number) => Array.from({ length: n }, () => letters[Math.floor(random() * letters.length)]).join('');
    for (let round = 0; round < 20; round++) {
      const items = Array.from({ length: 300 }, () =>
        item({
          name: word(1 + Math.floor(random() * 8)),
          sku: random() < 0.5 ? word(3) : null,
          category: random() < 0.5 ? word(4) : null,
          barcodes: random() < 0.3 ? [word(3)] : [],
          quantity: random() < 0.4 ? 0 : 3,
          priceCents: random() < 0.1 ? 0 : 100,
          isAvailable: random() > 0.05,
        }),
      );
      const index = buildCatalogueIndex(items);
      for (let q = 0; q < 40; q++) {
        const query = word(1 + Math.floor(random() * 4));
        expect(searchIndex(index, query).map((r) => r.item.id), `query '${query}'`).toEqual(reference(items, query));
      }
    }
  });
});
