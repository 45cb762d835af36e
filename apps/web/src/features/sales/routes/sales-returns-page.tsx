import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Search, Undo2 } from 'lucide-react';
import { lineRefundCents, returnableQuantity, splitRefund, type SaleReturn } from '@pharmapoint/domain/sale-returns';
import { paymentKind, tillPaymentMethods, type Sale } from '@pharmapoint/domain/sales';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { formErrorText } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useCreateSaleReturn, useDocumentSettings, useSale, useSaleReturns, useSalesHistory, useVoidSale } from '@/features/sales/api/sales';
import { SaleStatusBadge } from '@/features/sales/components/sale-status-badge';
import { newUuid } from '@/lib/idempotency';

interface ReturnForm {
  lines: { quantity: string; condition: 'restock' | 'damaged' }[];
  refundMethod: string;
  refundReference: string;
  reason: string;
}

/** Pieces each line got back in earlier returns. */
function returnedByLine(returns: readonly SaleReturn[] | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of returns ?? []) for (const i of r.items) out.set(i.line, (out.get(i.line) ?? 0) + i.quantity);
  return out;
}

/**
 * /app/sales/returns (issue 10 item 8, decision 0038): find a sale by invoice number, choose per line how many
 * pieces come back (never more than sold less earlier returns) and whether they go back on the shelf or are written
 * off as damaged, and how the refund is paid; the server does it in one transaction. A sale of today can be voided
 * (sales:void). Returning needs pos:refund or sales:refund (the server checks too).
 */
export default function SalesReturnsPage() {
  const { t } = useTranslation('sales');
  const { can, canAny, isDemo } = usePermissions();
  const mayReturn = canAny(['pos:refund', 'sales:refund']) && !isDemo;
  const mayVoid = can('sales:void') && !isDemo;
  const [params, setParams] = useSearchParams();
  const saleId = params.get('sale');
  const [search, setSearch] = useState('');
  const [submitted, setSubmitted] = useState('');
  const found = useSalesHistory({ invoiceNumber: submitted, limit: 10 }, submitted !== '');

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        eyebrow={
          <Link to="/app/allsales" className="inline-flex items-center gap-1 hover:text-primary">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('nav.backToSales')}
          </Link>
        }
        title={t('returns.title')}
        description={t('returns.description')}
      />
      {!mayReturn ? <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">{t('returns.noPermission')}</p> : null}
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(search.trim());
        }}
      >
        <Field label={t('returns.findLabel')} className="min-w-0 flex-1">
          <Input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="INV-000123" />
        </Field>
        <Button type="submit" icon={<Search className="size-4" aria-hidden="true" />}>{t('returns.find')}</Button>
      </form>
      {submitted !== '' ? (
        <section aria-label={t('returns.results')} className="rounded-lg border border-slate-200 bg-white p-4">
          {found.isPending ? <LoadingState message={t('loading')} /> : null}
          {found.isError ? <ErrorState message={errorMessage(found.error)} onRetry={() => void found.refetch()} /> : null}
          {found.data && found.data.items.length === 0 ? <p className="text-sm text-slate-600">{t('returns.noMatch', { invoice: submitted })}</p> : null}
          <ul className="divide-y divide-slate-100">
            {found.data?.items.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  <span className="font-medium">{s.invoiceNumber}</span> · {s.clientName} · {formatDate(s.saleDate)} · {formatMoney(s.totalCents)} <SaleStatusBadge status={s.status} />
                </span>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setParams({ sale: s.id });
                    setSubmitted('');
                  }}
                  aria-label={t('returns.chooseLabel', { invoice: s.invoiceNumber })}
                >
                  {t('returns.choose')}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {saleId ? <ReturnPanel key={saleId} saleId={saleId} mayReturn={mayReturn} mayVoid={mayVoid} /> : (
        <EmptyState icon={<Undo2 className="size-10" aria-hidden="true" />} title={t('returns.emptyTitle')} description={t('returns.emptyDescription')} />
      )}
    </div>
  );
}

function ReturnPanel({ saleId, mayReturn, mayVoid }: { saleId: string; mayReturn: boolean; mayVoid: boolean }) {
  const { t } = useTranslation('sales');
  const sale = useSale(saleId);
  const returns = useSaleReturns(saleId);
  if (sale.isPending || returns.isPending) return <LoadingState message={t('loading')} />;
  if (sale.isError) return <ErrorState message={errorMessage(sale.error)} onRetry={() => void sale.refetch()} />;
  if (returns.isError) return <ErrorState message={errorMessage(returns.error)} onRetry={() => void returns.refetch()} />;
  return <ReturnForm sale={sale.data} returns={returns.data.items} mayReturn={mayReturn} mayVoid={mayVoid} />;
}

function ReturnForm({ sale, returns, mayReturn, mayVoid }: { sale: Sale; returns: SaleReturn[]; mayReturn: boolean; mayVoid: boolean }) {
  const { t } = useTranslation('sales');
  const settings = useDocumentSettings();
  const create = useCreateSaleReturn(sale.id);
  const voiding = useVoidSale(sale.id);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const returned = useMemo(() => returnedByLine(returns), [returns]);
  const methods = tillPaymentMethods(settings.data?.settings.paymentMethods).filter((m) => paymentKind(m) !== 'credit');
  const { register, handleSubmit, watch, setError, reset, formState: { errors } } = useForm<ReturnForm>({
    defaultValues: { lines: sale.lines.map(() => ({ quantity: '', condition: 'restock' as const })), refundMethod: methods[0] ?? 'Cash', refundReference: '', reason: '' },
  });
  const values = watch();
  const closed = sale.status === 'voided' || sale.status === 'returned';

  // The refund as the server will compute it (line totals, cumulative rounding), for the preview.
  const preview = sale.lines.reduce((sum, line, i) => {
    const n = Number(values.lines[i]?.quantity || 0);
    if (!Number.isInteger(n) || n <= 0 || n > returnableQuantity(line.quantity, returned.get(line.line) ?? 0)) return sum;
    return sum + lineRefundCents(line.totalCents, line.quantity, returned.get(line.line) ?? 0, n);
  }, 0);
  const { creditCents, paidOutCents } = splitRefund(preview, sale.balanceDueCents);

  const onSubmit = handleSubmit(async (form) => {
    setFormError(null);
    const lines: { line: number; quantity: number; condition: 'restock' | 'damaged' }[] = [];
    let bad = false;
    sale.lines.forEach((line, i) => {
      const raw = form.lines[i]?.quantity.trim() ?? '';
      if (raw === '' || raw === '0') return;
      const n = Number(raw);
      const left = returnableQuantity(line.quantity, returned.get(line.line) ?? 0);
      if (!Number.isInteger(n) || n < 0) {
        setError(`lines.${i}.quantity`, { message: t('returns.wholeNumber') });
        bad = true;
      } else if (n > left) {
        setError(`lines.${i}.quantity`, { message: t('returns.atMost', { count: left }) });
        bad = true;
      } else {
        lines.push({ line: line.line, quantity: n, condition: form.lines[i]!.condition });
      }
    });
    if (bad) return;
    if (lines.length === 0) {
      setFormError(t('returns.chooseOne'));
      return;
    }
    try {
      const result = await create.mutateAsync({
        id: newUuid(),
        lines,
        refundMethod: paidOutCents > 0 ? form.refundMethod : undefined,
        refundReference: form.refundReference.trim() || undefined,
        reason: form.reason.trim() || undefined,
      });
      toast.success(t('returns.saved', { number: result.returnNumber, amount: formatMoney(result.refundCents), status: t(`status.${result.saleStatus}`) }));
      reset({ lines: sale.lines.map(() => ({ quantity: '', condition: 'restock' as const })), refundMethod: form.refundMethod, refundReference: '', reason: '' });
    } catch (error) {
      setFormError(formErrorText(error));
    }
  });

  async function doVoid() {
    try {
      const result = await voiding.mutateAsync({ id: newUuid() });
      toast.success(t('returns.voided', { invoice: sale.invoiceNumber, amount: formatMoney(result.refundCents) }));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setConfirmVoid(false);
    }
  }

  return (
    <section aria-labelledby="return-sale" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="return-sale" className="text-lg font-semibold text-slate-900">{t('returns.saleHeading', { invoice: sale.invoiceNumber })}</h2>
          <p className="text-sm text-slate-600">{sale.clientName} · {formatDateTime(sale.createdAt)} · {sale.branchName} · {formatMoney(sale.totalCents)}</p>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-sm text-slate-600">{t('returns.statusLabel')}</span>
          <SaleStatusBadge status={sale.status} />
        </div>
      </div>
      {closed ? <p className="text-sm text-slate-700">{t('returns.closed', { status: t(`status.${sale.status}`) })}</p> : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {sale.lines.map((line, i) => {
            const back = returned.get(line.line) ?? 0;
            const left = returnableQuantity(line.quantity, back);
            return (
              <li key={line.line} className="grid gap-3 p-3 sm:grid-cols-[1fr_10rem_12rem] sm:items-start">
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">{line.name}</p>
                  <p className="text-slate-600">{t('returns.soldReturned', { sold: line.quantity, returned: back, left })} · {formatMoney(line.totalCents)}</p>
                </div>
                <Field label={t('returns.quantityLabel', { product: line.name })} error={errors.lines?.[i]?.quantity?.message}>
                  <Input type="number" inputMode="numeric" min={0} max={left} step={1} disabled={left === 0 || !mayReturn} {...register(`lines.${i}.quantity`)} />
                </Field>
                <Field label={t('returns.conditionLabel', { product: line.name })}>
                  <Select
                    disabled={left === 0 || !mayReturn}
                    options={[{ value: 'restock', label: t('condition.restock') }, { value: 'damaged', label: t('condition.damaged') }]}
                    {...register(`lines.${i}.condition`)}
                  />
                </Field>
              </li>
            );
          })}
        </ul>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label={t('returns.refundMethod')}>
            <Select disabled={!mayReturn || closed} options={methods.map((m) => ({ value: m, label: m }))} {...register('refundMethod')} />
          </Field>
          <Field label={t('returns.reference')}>
            <Input maxLength={60} disabled={!mayReturn || closed} {...register('refundReference')} />
          </Field>
          <Field label={t('returns.reason')}>
            <Input maxLength={300} placeholder={t('returns.reasonPlaceholder')} disabled={!mayReturn || closed} {...register('reason')} />
          </Field>
        </div>
        <p className="text-sm text-slate-700" aria-live="polite">
          {t('returns.preview', { amount: formatMoney(preview) })}
          {creditCents > 0 ? ` ${t('returns.previewCredit', { amount: formatMoney(creditCents) })}` : ''}
          {creditCents > 0 && paidOutCents > 0 ? ` ${t('returns.previewPaidOut', { amount: formatMoney(paidOutCents) })}` : ''}
        </p>
        {formError ? <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">{formError}</p> : null}
        <div className="flex flex-wrap justify-end gap-2">
          {mayVoid && sale.status === 'completed' ? (
            <Button type="button" variant="danger" onClick={() => setConfirmVoid(true)}>{t('returns.void')}</Button>
          ) : null}
          <Button type="submit" loading={create.isPending} disabled={!mayReturn || closed}>{t('returns.submit')}</Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmVoid}
        onOpenChange={(open) => !voiding.isPending && setConfirmVoid(open)}
        title={t('returns.voidTitle', { invoice: sale.invoiceNumber })}
        description={t('returns.voidDescription', { amount: formatMoney(sale.totalCents) })}
        confirmLabel={t('returns.voidConfirm')}
        cancelLabel={t('returns.voidKeep')}
        destructive
        loading={voiding.isPending}
        onConfirm={() => void doVoid()}
      />
    </section>
  );
}
