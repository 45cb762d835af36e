/** The last receipts of this till, for reprinting (kept in the browser; the sale itself is read from the server). */
export interface RecentReceipt {
  id: string;
  invoiceNumber: string;
  totalCents: number;
  at: string;
}

const KEY = 'pp_pos_recent_receipts';
export const RECENT_RECEIPTS_MAX = 20;

export function recentReceipts(): RecentReceipt[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value)
      ? value.filter((r): r is RecentReceipt => typeof r === 'object' && r !== null && typeof (r as RecentReceipt).id === 'string' && typeof (r as RecentReceipt).invoiceNumber === 'string')
      : [];
  } catch {
    return [];
  }
}

export function rememberReceipt(receipt: RecentReceipt): void {
  try {
    const list = [receipt, ...recentReceipts().filter((r) => r.id !== receipt.id)].slice(0, RECENT_RECEIPTS_MAX);
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // Storage unavailable: reprint by address still works.
  }
}
