import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeCatalogue, type PosCatalogueItem } from '@pharmapoint/domain/pos-catalogue';
import { preloadPosCatalogue, resetPreloadedCatalogue } from '@/features/pos/catalogue/catalogue-preload';
import { branchCatalogueStore } from '@/features/pos/catalogue/catalogue-store';

/**
 * The catalogue store with the page's preload (decision 0064): the answer asked for before the till's code loaded
 * is shown without asking again, then revalidated with its ETag (304 keeps it); another branch's preload is dropped.
 */

const item = (id: string, name: string, quantity: number): PosCatalogueItem => ({
  id,
  name,
  sku: null,
  barcodes: [],
  category: null,
  packageSize: 1,
  packageType: 'tablets',
  isDda: false,
  isActive: true,
  isAvailable: true,
  taxApplied: false,
  taxRateBasisPoints: null,
  priceCents: 1000,
  costCents: 500,
  minMarginBasisPoints: 2200,
  minimumPriceCents: null,
  quantity,
  reservedQuantity: 0,
  expiredQuantity: 0,
  lowStockThreshold: 5,
  nearestExpiry: null,
});

const json = (body: unknown, etag: string | null) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...(etag ? { etag } : {}) } });

async function settled(store: ReturnType<typeof branchCatalogueStore>, calls: () => number, count: number) {
  await vi.waitFor(() => {
    expect(store.getState().status).toBe('ready');
    expect(calls()).toBe(count);
  });
  // The last answer's handling runs after its fetch resolved.
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the catalogue store with the page preload', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockReset();
    window.history.pushState({}, '', '/pos');
    localStorage.setItem('pp_session_hint', '1');
    resetPreloadedCatalogue();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.pushState({}, '', '/');
    localStorage.removeItem('pp_session_hint');
  });

  it("shows the preloaded answer of its branch, then revalidates it with the ETag (304 keeps it)", async () => {
    const branch = '00000000-0000-4000-8000-0000000000a1';
    fetchMock.mockResolvedValueOnce(json(encodeCatalogue(branch, '2026-11-26T10:00:00.000Z', [item('p1', 'Amoxicillin 250mg', 10)]), '"v1"'));
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 304 }));
    preloadPosCatalogue();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/pos/catalogue');

    const store = branchCatalogueStore(branch);
    const release = store.retain();
    await settled(store, () => fetchMock.mock.calls.length, 2);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toBe(`/api/pos/catalogue?branchId=${branch}`);
    expect((init?.headers as Record<string, string>)['If-None-Match']).toBe('"v1"');
    expect(store.getState().items.map((i) => i.name)).toEqual(['Amoxicillin 250mg']);
    expect(store.getState().error).toBeNull();
    release();
  });

  it('takes the revalidation answer when the catalogue changed meanwhile', async () => {
    const branch = '00000000-0000-4000-8000-0000000000a2';
    fetchMock.mockResolvedValueOnce(json(encodeCatalogue(branch, '2026-11-26T10:00:00.000Z', [item('p1', 'Amoxicillin 250mg', 10)]), '"v1"'));
    fetchMock.mockResolvedValueOnce(json(encodeCatalogue(branch, '2026-11-26T10:00:01.000Z', [item('p1', 'Amoxicillin 250mg', 7)]), '"v2"'));
    preloadPosCatalogue();
    const store = branchCatalogueStore(branch);
    const release = store.retain();
    await settled(store, () => fetchMock.mock.calls.length, 2);
    await vi.waitFor(() => expect(store.getState().items[0]!.quantity).toBe(7));
    release();
  });

  it("drops another branch's preload and asks for its own", async () => {
    const branch = '00000000-0000-4000-8000-0000000000a3';
    const otherBranch = '00000000-0000-4000-8000-0000000000b3';
    fetchMock.mockResolvedValueOnce(json(encodeCatalogue(otherBranch, '2026-11-26T10:00:00.000Z', [item('x', 'Not this branch', 1)]), '"o1"'));
    fetchMock.mockResolvedValueOnce(json(encodeCatalogue(branch, '2026-11-26T10:00:00.000Z', [item('p2', 'Paracetamol 500mg', 3)]), '"m1"'));
    preloadPosCatalogue();
    const store = branchCatalogueStore(branch);
    const release = store.retain();
    await settled(store, () => fetchMock.mock.calls.length, 2);
    const [, init] = fetchMock.mock.calls[1]!;
    expect((init?.headers as Record<string, string>)['If-None-Match']).toBeUndefined();
    expect(store.getState().items.map((i) => i.name)).toEqual(['Paracetamol 500mg']);
    release();
  });

  it('asks nothing outside the till or without a session', () => {
    window.history.pushState({}, '', '/app/products');
    preloadPosCatalogue();
    window.history.pushState({}, '', '/pos');
    localStorage.removeItem('pp_session_hint');
    preloadPosCatalogue();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
