import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import {
  findCodeInIndex,
  searchIndex,
  withItems,
  type PosCatalogueItem,
  type PosSearchResult,
} from '@pharmapoint/domain/pos-catalogue';
import { useLiveStock, usePendingStock } from '@/lib/live-stock/live-stock';
import { overlayPending } from '@/features/pos/catalogue/catalogue-state';
import { branchCatalogueStore, loadingState, type BranchCatalogueStore, type CatalogueState } from '@/features/pos/catalogue/catalogue-store';

export interface BranchCatalogue {
  status: 'loading' | 'ready' | 'error';
  /** A readable sentence, e.g. 'Failed to load POS data'. */
  error: string | null;
  items: readonly PosCatalogueItem[];
  /** Increments on every change (for memo deps). */
  version: number;
  get(id: string): PosCatalogueItem | undefined;
  /** Seed 001 section 5: at most 15, in-stock first, listed products only; cartIds are listed but not selectable. */
  search(query: string, cartIds?: ReadonlySet<string>): PosSearchResult[];
  /** Exact SKU or barcode, case-insensitive (the barcode scanner). */
  findByCode(code: string): PosCatalogueItem | undefined;
  /** Fetches the catalogue again; never rejects ('Failed to refresh data' in `error` on failure). */
  refresh(): Promise<void>;
}

const LOADING: CatalogueState = loadingState();
const idle = { subscribe: () => () => undefined, getState: () => LOADING };
let views = 0;

/**
 * The till's catalogue of a branch (decision 0024): shown at once from IndexedDB when this browser has a copy,
 * fetched from GET /api/pos/catalogue, kept current by the live stock stream (another till's sale shows here as
 * soon as its event arrives) and by the optimistic 'STOCK_UPDATE' values of this browser's tabs. The search runs
 * here, over a prepared index. null branch: loading, nothing fetched.
 */
export function useBranchCatalogue(branchId: string | null): BranchCatalogue {
  useLiveStock();
  const store: BranchCatalogueStore | null = branchId ? branchCatalogueStore(branchId) : null;
  useEffect(() => store?.retain(), [store]);
  const source = store ?? idle;
  const state = useSyncExternalStore(source.subscribe, source.getState, source.getState);
  const pending = usePendingStock();

  // Optimistic values over the server's quantities; texts unchanged, so the index keeps its haystacks.
  const view = useMemo(() => {
    const items = branchId ? overlayPending(state.items, state.positions, branchId, pending, Date.now()) : state.items;
    views += 1;
    return { items, index: items === state.items ? state.index : withItems(state.index, items), version: views };
  }, [state, pending, branchId]);

  const get = useCallback((id: string) => {
    const at = state.positions.get(id);
    return at === undefined ? undefined : view.items[at];
  }, [state.positions, view.items]);
  const search = useCallback((query: string, cartIds?: ReadonlySet<string>) => searchIndex(view.index, query, { cartIds }), [view.index]);
  const findByCode = useCallback((code: string) => findCodeInIndex(view.index, code), [view.index]);
  const refresh = useCallback(() => (store ? store.refresh() : Promise.resolve()), [store]);

  return useMemo(
    () => ({ status: state.status, error: state.error, items: view.items, version: view.version, get, search, findByCode, refresh }),
    [state.status, state.error, view.items, view.version, get, search, findByCode, refresh],
  );
}
