import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { displayPurchaseNumber, type Purchase } from '@pharmapoint/domain/purchases';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/error-state';
import { formErrorText } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePurchase, useReceivePurchase } from '@/features/purchases/api/purchases';
import { PurchaseStatusBadge } from './status-badge';
import '@/features/purchases/purchases-catalogue';

/**
 * One purchase: its head, lines (received so far, returned) and totals; receive what is still to come, all of it or
 * some pieces per line (partial receiving).
 */
export function PurchaseDetailDialog({ id, onOpenChange, canEdit }: { id: string | null; onOpenChange: (open: boolean) => void; canEdit: boolean }) {
  const { t } = useTranslation('purchases');
  const purchase = usePurchase(id ?? undefined);
  const p = purchase.data;
  const [receiving, setReceiving] = useState(false);
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => {
        if (!open) setReceiving(false);
        onOpenChange(open);
      }}
      size="xl"
      title={p ? t('detail.title', { number: displayPurchaseNumber(p) }) : t('detail.loadingTitle')}
      description={p ? t('detail.description', { supplier: p.supplierName, branch: p.branchName, date: formatDate(p.date) }) : undefined}
      footer={
        p && canEdit && !receiving ? (
          <>
            <Link to={`/app/purchases/edit/${p.id}`} className={buttonClasses('outline')}>
              {t('actions.edit')}
            </Link>
            {p.status !== 'cancelled' && p.receivedQuantity < p.totalQuantity ? <Button onClick={() => setReceiving(true)}>{t('actions.receive')}</Button> : null}
          </>
        ) : undefined
      }
    >
      {purchase.isPending ? <LoadingState /> : null}
      {purchase.isError ? <ErrorState message={errorMessage(purchase.error)} onRetry={() => void purchase.refetch()} /> : null}
      {p && receiving ? <ReceiveForm purchase={p} onDone={() => setReceiving(false)} /> : null}
      {p && !receiving ? <PurchaseLines purchase={p} /> : null}
    </Dialog>
  );
}

function PurchaseLines({ purchase: p }: { purchase: Purchase }) {
  const { t } = useTranslation('purchases');
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <PurchaseStatusBadge status={p.status} />
        {p.reference ? <span>{t('detail.reference', { reference: p.reference })}</span> : null}
        <span>{t('detail.received', { received: p.receivedQuantity, total: p.totalQuantity })}</span>
      </div>
      <div className="overflow-x-auto">
        <Table caption={t('detail.linesCaption')}>
          <THead>
            <Tr>
              <Th>{t('form.product')}</Th>
              <Th numeric>{t('form.quantity')}</Th>
              <Th numeric>{t('detail.receivedColumn')}</Th>
              <Th>{t('form.batchNumber')}</Th>
              <Th>{t('form.expiryDate')}</Th>
              <Th numeric>{t('form.purchasePrice')}</Th>
              <Th numeric>{t('form.total')}</Th>
            </Tr>
          </THead>
          <TBody>
            {p.items.map((item) => (
              <Tr key={item.id}>
                <Td>
                  {item.productId ? (
                    <Link to={`/app/products/history/${item.productId}`} className="font-medium hover:text-primary hover:underline">
                      {item.name}
                    </Link>
                  ) : (
                    item.name
                  )}
                  {item.returnedQuantity > 0 ? <span className="block text-xs text-slate-500">{t('detail.returned', { count: item.returnedQuantity })}</span> : null}
                </Td>
                <Td numeric>{formatNumber(item.quantity)}</Td>
                <Td numeric>{formatNumber(item.receivedQuantity)}</Td>
                <Td>{item.batchNumber ?? '—'}</Td>
                <Td>{item.expiryDate ? formatDate(item.expiryDate) : '—'}</Td>
                <Td numeric>{formatMoney(item.purchasePriceCents)}</Td>
                <Td numeric>{formatMoney(item.totalCents)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </div>
      <dl className="ml-auto grid max-w-xs grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('form.subtotal')}</dt>
        <dd className="text-right tabular-nums">{formatMoney(p.subtotalCents)}</dd>
        <dt className="text-slate-600">{t('form.tax')}</dt>
        <dd className="text-right tabular-nums">{formatMoney(p.taxCents)}</dd>
        <dt className="font-semibold">{t('form.total')}</dt>
        <dd className="text-right font-semibold tabular-nums">{formatMoney(p.totalCents)}</dd>
      </dl>
      {p.notes ? <p className="text-sm text-slate-600">{p.notes}</p> : null}
    </div>
  );
}

/** Receive: each line's remaining pieces, editable (0 leaves a line for later). */
function ReceiveForm({ purchase: p, onDone }: { purchase: Purchase; onDone: () => void }) {
  const { t } = useTranslation('purchases');
  const receive = useReceivePurchase();
  const open = p.items.filter((i) => i.receivedQuantity < i.quantity);
  const [quantities, setQuantities] = useState<Record<string, string>>(() => Object.fromEntries(open.map((i) => [i.id, String(i.quantity - i.receivedQuantity)])));
  const [error, setError] = useState<string | null>(null);
  const issues = open.map((i) => {
    const text = (quantities[i.id] ?? '').trim();
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    const remaining = i.quantity - i.receivedQuantity;
    return Number.isInteger(n) && n >= 0 && n <= remaining ? null : t('receive.invalid', { remaining });
  });

  async function submit() {
    if (issues.some(Boolean)) return;
    const items = open.map((i) => ({ itemId: i.id, quantity: Number(quantities[i.id]) })).filter((i) => i.quantity > 0);
    if (items.length === 0) {
      setError(t('receive.nothing'));
      return;
    }
    setError(null);
    try {
      await receive.mutateAsync({ id: p.id, input: { items } });
      toast.success(t('receive.done'));
      onDone();
    } catch (e) {
      setError(formErrorText(e));
    }
  }

  return (
    <form
      noValidate
      aria-label={t('receive.title')}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="text-sm text-slate-600">{t('receive.description')}</p>
      <ul className="space-y-2">
        {open.map((item, index) => {
          const inputId = `receive-${item.id}`;
          return (
            <li key={item.id} className="grid items-center gap-2 sm:grid-cols-[1fr_8rem]">
              <label htmlFor={inputId} className="text-sm">
                <span className="font-medium">{item.name}</span>{' '}
                <span className="text-slate-500">{t('receive.remaining', { count: item.quantity - item.receivedQuantity, batch: item.batchNumber ?? '—' })}</span>
              </label>
              <Input
                id={inputId}
                inputMode="numeric"
                value={quantities[item.id] ?? ''}
                aria-invalid={issues[index] ? true : undefined}
                onChange={(e) => setQuantities((q) => ({ ...q, [item.id]: e.target.value }))}
              />
              {issues[index] ? (
                <p role="alert" className="text-xs font-medium text-red-600 sm:col-span-2">
                  {issues[index]}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          {t('common:actions.cancel')}
        </Button>
        <Button type="submit" loading={receive.isPending}>
          {t('receive.submit')}
        </Button>
      </div>
    </form>
  );
}
