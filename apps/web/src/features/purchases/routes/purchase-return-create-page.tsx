import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft } from 'lucide-react';
import { displayPurchaseNumber, returnValueCents } from '@pharmapoint/domain/purchases';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Combobox } from '@/components/ui/combobox';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { formErrorText } from '@/components/ui/form';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useCreatePurchaseReturn, usePurchase, usePurchases } from '@/features/purchases/api/purchases';
import { useIdempotencyKey } from '@/lib/idempotency';
import '@/features/purchases/purchases-catalogue';

/**
 * /app/purchase-returns/create: choose a purchase, the pieces of each received line to send back (each from the batch
 * it was received into), and the reason. Stock and the supplier's balance go down; the ledger records it.
 */
export default function PurchaseReturnCreatePage() {
  const { t } = useTranslation('purchases');
  const navigate = useNavigate();
  const { isDemo } = usePermissions();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const purchases = usePurchases({ search: q || undefined, limit: 25, offset: 0 });
  const [purchaseId, setPurchaseId] = useState('');
  const purchase = usePurchase(purchaseId || undefined);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const keys = useIdempotencyKey();
  const create = useCreatePurchaseReturn();
  const options = (purchases.data?.items ?? [])
    .filter((p) => p.receivedQuantity > 0)
    .map((p) => ({ value: p.id, label: `${displayPurchaseNumber(p)} · ${p.supplierName}`, description: formatDate(p.date) }));
  if (purchase.data && !options.some((o) => o.value === purchase.data.id)) {
    options.unshift({ value: purchase.data.id, label: `${displayPurchaseNumber(purchase.data)} · ${purchase.data.supplierName}`, description: formatDate(purchase.data.date) });
  }
  const lines = (purchase.data?.items ?? []).filter((i) => i.receivedQuantity - i.returnedQuantity > 0);
  const parsed = lines.map((item) => {
    const text = (quantities[item.id] ?? '').trim();
    const available = item.receivedQuantity - item.returnedQuantity;
    if (text === '') return { item, quantity: 0, issue: null };
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    return { item, quantity: n, issue: Number.isInteger(n) && n >= 0 && n <= available ? null : t('returnForm.invalid', { available }) };
  });
  const chosen = parsed.filter((p) => p.quantity > 0 && !p.issue);
  const totalCents = chosen.reduce((sum, p) => sum + returnValueCents(p.item, p.quantity), 0);

  async function submit() {
    if (isDemo) return;
    const missingReason = reason.trim() === '';
    setReasonError(missingReason ? t('returnForm.reasonRequired') : null);
    if (!purchase.data) return setError(t('returnForm.choosePurchase'));
    if (parsed.some((p) => p.issue) || missingReason) return;
    if (chosen.length === 0) return setError(t('returnForm.itemsRequired'));
    setError(null);
    try {
      const input = { purchaseId: purchase.data.id, reason: reason.trim(), items: chosen.map((p) => ({ purchaseItemId: p.item.id, quantity: p.quantity })) };
      const result = await create.mutateAsync({ key: keys.keyFor(input), input });
      toast.success(result.message);
      keys.renew();
      await navigate('/app/purchase-returns');
    } catch (e) {
      setError(formErrorText(e));
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('returnForm.title')}
        description={t('returnForm.description')}
        actions={
          <Link to="/app/purchase-returns" className={buttonClasses('outline')}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('returnForm.back')}
          </Link>
        }
      />
      <form
        noValidate
        aria-label={t('returnForm.title')}
        className="space-y-6"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Card title={t('returnForm.purchase')}>
          <Field label={t('returnForm.purchase')} required>
            <Combobox
              value={purchaseId}
              onValueChange={(id) => {
                setPurchaseId(id);
                setQuantities({});
                setError(null);
              }}
              options={options}
              placeholder={t('returnForm.choosePurchase')}
              searchLabel={t('returnForm.searchPurchase')}
              emptyText={t('returnForm.noPurchases')}
              onSearchChange={setSearch}
              loading={purchases.isFetching}
              loadingText={t('form.searching')}
            />
          </Field>
        </Card>
        {purchaseId && purchase.isPending ? <LoadingState /> : null}
        {purchase.isError ? <ErrorState message={errorMessage(purchase.error)} onRetry={() => void purchase.refetch()} /> : null}
        {purchase.data ? (
          <Card title={t('returnForm.items')} description={t('returnForm.itemsHint')} flush>
            {lines.length === 0 ? (
              <p className="p-4 text-sm text-slate-600">{t('returnForm.nothingReceived')}</p>
            ) : (
              <div className="overflow-x-auto">
                <Table caption={t('returnForm.items')}>
                  <THead>
                    <Tr>
                      <Th>{t('form.product')}</Th>
                      <Th>{t('form.batchNumber')}</Th>
                      <Th numeric>{t('returnForm.available')}</Th>
                      <Th numeric>{t('returnForm.quantity')}</Th>
                    </Tr>
                  </THead>
                  <TBody>
                    {parsed.map(({ item, issue }) => {
                      const inputId = `return-${item.id}`;
                      return (
                        <Tr key={item.id}>
                          <Td>
                            <label htmlFor={inputId} className="font-medium">
                              {item.name}
                            </label>
                            {issue ? (
                              <span role="alert" className="block text-xs font-medium text-red-600">
                                {issue}
                              </span>
                            ) : null}
                          </Td>
                          <Td>
                            {item.batchNumber ?? '—'}
                            {item.expiryDate ? <span className="block text-xs text-slate-500">{formatDate(item.expiryDate)}</span> : null}
                          </Td>
                          <Td numeric>{formatNumber(item.receivedQuantity - item.returnedQuantity)}</Td>
                          <Td numeric>
                            <Input
                              id={inputId}
                              className="ml-auto w-24"
                              inputMode="numeric"
                              value={quantities[item.id] ?? ''}
                              aria-invalid={issue ? true : undefined}
                              onChange={(e) => setQuantities((q) => ({ ...q, [item.id]: e.target.value }))}
                            />
                          </Td>
                        </Tr>
                      );
                    })}
                  </TBody>
                </Table>
              </div>
            )}
          </Card>
        ) : null}
        <Card>
          <Field label={t('returns.reason')} required error={reasonError ?? undefined}>
            <Textarea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <p className="mt-3 text-sm text-slate-700" aria-live="polite">
            {t('returnForm.value', { total: formatMoney(totalCents) })}
          </p>
          <div className="mt-4">
            <FormActions error={error} notice={isDemo ? t('demoDisabled') : null}>
              <Button type="submit" loading={create.isPending} disabled={isDemo}>
                {t('returnForm.submit')}
              </Button>
            </FormActions>
          </div>
        </Card>
      </form>
    </div>
  );
}
