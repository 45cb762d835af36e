import { suspendedSaleSchema, type SuspendedSale } from '@pharmapoint/domain/suspended-sales';

/**
 * Handing a suspended sale from /app/suspended-sales to the till through browser storage (seed 001 sections 2 and
 * 4, decision 0028). The suspended-sales screen writes the sale flagged isResumed and navigates to /pos; the till
 * reads it once (reading consumes it). It is accepted only when flagged isResumed, its cart is not empty and its
 * client is registered; anything else found under the key is corrupt: it is removed and the till shows
 * 'Failed to resume sale - data may be corrupted'.
 */

export const RESUME_HANDOFF_KEY = 'pp_resume_sale';

export type ResumeHandoff = { status: 'none' } | { status: 'ok'; sale: SuspendedSale } | { status: 'corrupt' };

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Stores the sale for the till, flagged isResumed (one at a time: a second write replaces the first). */
export function writeResumeHandoff(sale: SuspendedSale): void {
  storage()?.setItem(RESUME_HANDOFF_KEY, JSON.stringify({ isResumed: true, savedAt: new Date().toISOString(), sale }));
}

/** Reads and removes the handed-over sale. */
export function readResumeHandoff(): ResumeHandoff {
  const store = storage();
  const raw = store?.getItem(RESUME_HANDOFF_KEY);
  if (raw === null || raw === undefined) return { status: 'none' };
  store?.removeItem(RESUME_HANDOFF_KEY);
  try {
    const data = JSON.parse(raw) as unknown;
    if (!data || typeof data !== 'object' || (data as { isResumed?: unknown }).isResumed !== true) return { status: 'corrupt' };
    const parsed = suspendedSaleSchema.safeParse((data as { sale?: unknown }).sale);
    if (!parsed.success) return { status: 'corrupt' };
    const sale = parsed.data;
    if (sale.lines.length === 0 || !sale.client.id) return { status: 'corrupt' };
    return { status: 'ok', sale };
  } catch {
    return { status: 'corrupt' };
  }
}
