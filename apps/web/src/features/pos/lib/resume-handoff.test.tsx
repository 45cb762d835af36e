import { afterEach, describe, expect, it } from 'vitest';
import type { SuspendedSale } from '@pharmapoint/domain/suspended-sales';
import { readResumeHandoff, RESUME_HANDOFF_KEY, writeResumeHandoff } from '@/features/pos/lib/resume-handoff';

const sale: SuspendedSale = {
  id: '11111111-1111-4111-8111-111111111111',
  reservationId: 'RES-1764000000000-ABCDEF',
  branchId: '22222222-2222-4222-8222-222222222222',
  branchName: 'Main Branch',
  client: { id: '33333333-3333-4333-8333-333333333333', name: 'Akinyi Odhiambo', phone: '254712345678', location: null },
  clientName: 'Akinyi Odhiambo',
  clientPhone: '254712345678',
  totalCents: 15_000,
  paymentMethod: 'Cash',
  amountPaidCents: 5000,
  paymentStatus: 'partial',
  notes: 'Customer requested suspension',
  status: 'suspended',
  cartItemCount: 1,
  suspendedAt: '2026-11-24T02:00:00.000Z',
  suspendedBy: { id: null, name: 'Grace Wanjiku', email: null },
  version: '2.0',
  stockReserved: true,
  subtotalCents: 15_000,
  discount: null,
  discountCents: 0,
  taxCents: 0,
  lines: [
    {
      line: 1,
      productId: '44444444-4444-4444-8444-444444444444',
      name: 'Ventolin Inhaler',
      sku: null,
      quantity: 3,
      unitMode: 'P',
      packageSize: 1,
      unitPriceCents: 5000,
      listPriceCents: 5000,
      totalCents: 15_000,
      isDda: false,
      prescription: null,
      needsRefill: false,
      refillDays: null,
      lowMargin: false,
    },
  ],
  reservations: [{ productId: '44444444-4444-4444-8444-444444444444', name: 'Ventolin Inhaler', quantity: 3, batches: [] }],
};

afterEach(() => sessionStorage.clear());

describe('the resume handoff', () => {
  it('is read once: written flagged isResumed, read back, then gone', () => {
    expect(readResumeHandoff()).toEqual({ status: 'none' });
    writeResumeHandoff(sale);
    expect(JSON.parse(sessionStorage.getItem(RESUME_HANDOFF_KEY)!).isResumed).toBe(true);
    expect(readResumeHandoff()).toEqual({ status: 'ok', sale });
    expect(readResumeHandoff()).toEqual({ status: 'none' });
  });

  it('discards corrupt data: not JSON, not flagged, an empty cart, no registered client', () => {
    const corrupt = [
      '{not json',
      JSON.stringify({ sale }),
      JSON.stringify({ isResumed: true, sale: { ...sale, lines: [] } }),
      JSON.stringify({ isResumed: true, sale: { ...sale, client: { ...sale.client, id: '' } } }),
      JSON.stringify({ isResumed: true, sale: { id: sale.id } }),
    ];
    for (const raw of corrupt) {
      sessionStorage.setItem(RESUME_HANDOFF_KEY, raw);
      expect(readResumeHandoff(), raw).toEqual({ status: 'corrupt' });
      expect(sessionStorage.getItem(RESUME_HANDOFF_KEY)).toBeNull();
    }
  });
});
