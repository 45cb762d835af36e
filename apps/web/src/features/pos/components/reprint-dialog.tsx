import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatMoney } from '@/lib/format';
import { getSale } from '@/features/pos/api/sales';
import ReceiptDialog from '@/features/pos/components/receipt-dialog';
import { recentReceipts } from '@/features/pos/lib/recent-receipts';
import type { ReceiptBusiness } from '@/features/pos/lib/receipt-text';

export interface ReprintDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  business: ReceiptBusiness;
  /** A sale to open at once (/pos?receipt=<id>). */
  initialId?: string | null;
  receiptFormat?: 'thermal' | 'a4';
}

/**
 * Reprint: this till's last receipts (kept in the browser), each read again from GET /api/sales/:id and shown in
 * the Sale Receipt modal with Print, PDF and WhatsApp. /pos?receipt=<sale id> opens one directly (the back office
 * links there).
 */
export default function ReprintDialog({ open, onOpenChange, business, initialId, receiptFormat }: ReprintDialogProps) {
  const { t } = useTranslation('pos');
  const [chosen, setChosen] = useState<string | null>(initialId ?? null);
  const recent = recentReceipts();
  const sale = useQuery({ queryKey: ['sales', chosen], queryFn: ({ signal }) => getSale(chosen!, signal), enabled: Boolean(chosen) });

  if (chosen && sale.data) {
    return <ReceiptDialog sale={sale.data} open={open} onOpenChange={onOpenChange} business={business} receiptFormat={receiptFormat} />;
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('reprint.title')} description={t('reprint.description')} size="sm">
      {chosen && sale.isPending ? <LoadingState /> : null}
      {chosen && sale.isError ? <ErrorState message={errorMessage(sale.error)} onRetry={() => void sale.refetch()} /> : null}
      {!chosen ? (
        recent.length === 0 ? (
          <p className="text-sm text-slate-500">{t('reprint.none')}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {recent.map((r) => (
              <li key={r.id} className="flex items-center gap-2 py-2 text-sm">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{r.invoiceNumber}</p>
                  <p className="text-xs text-slate-500">
                    {formatDateTime(r.at)} · {formatMoney(r.totalCents, business.currencySymbol)}
                  </p>
                </div>
                <Button size="sm" variant="outline" onClick={() => setChosen(r.id)} aria-label={t('reprint.open', { invoice: r.invoiceNumber })}>
                  {t('reprint.show')}
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </Dialog>
  );
}
