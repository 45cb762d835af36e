import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Banknote, Pencil } from 'lucide-react';
import type { ContactSummary } from '@pharmapoint/domain/contacts';
import { formatKes, type SupplierInvoice, type SupplierPayment } from '@pharmapoint/domain/supplier-payments';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, dataTableColumns } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney, pharmacyToday } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useContactSummary, useDeletePayment } from '../api/contacts';
import { ContactFormDialog } from '../components/contact-form-dialog';
import { SupplierPaymentDialog } from '../components/supplier-payment-dialog';
import { phoneText } from './contacts-page';
import { ReminderConsentSwitch } from '@/components/reminder-consent-switch';

/** /app/contacts/:id: a contact's details, its balance, and its sales, payments and prescriptions or its purchases and payments. */
export default function ContactDetailPage() {
  const { id } = useParams();
  const { t } = useTranslation('contacts');
  const summary = useContactSummary(id);
  const { can, isDemo } = usePermissions();
  const [editing, setEditing] = useState(false);
  const back = (
    <Link to="/app/contacts" className={buttonClasses('ghost', 'sm')}>
      <ArrowLeft className="size-4" aria-hidden="true" />
      {t('detail.back')}
    </Link>
  );
  if (summary.isPending) return <LoadingState message={t('detail.loading')} />;
  if (summary.isError) {
    return (
      <div>
        {back}
        <ErrorState message={`${t('detail.loadFailed')} ${errorMessage(summary.error)}`} onRetry={() => void summary.refetch()} />
      </div>
    );
  }
  const data = summary.data;
  const c = data.contact;
  const canEdit = (can('contact:update') || (c.type === 'supplier' && can('supplier:update'))) && !isDemo;
  return (
    <div className="space-y-4">
      {back}
      <PageHeader
        title={c.name}
        eyebrow={t(`types.${c.type}`)}
        description={c.isActive ? undefined : t('list.inactive')}
        actions={
          canEdit ? (
            <Button variant="outline" icon={<Pencil className="size-4" aria-hidden="true" />} onClick={() => setEditing(true)}>
              {t('detail.edit')}
            </Button>
          ) : null
        }
      />
      <Card title={t('detail.contactDetails')} headingLevel={2}>
        <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          {[
            [t('detail.phone'), phoneText(c.phone)],
            [t('detail.email'), c.email ?? '—'],
            [t('detail.location'), c.location ?? '—'],
            [t('detail.address'), c.address ?? '—'],
            ...(c.type === 'supplier' ? [[t('detail.creditTerms'), c.creditPeriodDays != null ? `${c.creditTerms ?? ''} (${t('list.days', { count: c.creditPeriodDays })})` : t('list.defaultTerms')]] : []),
            [t('detail.status'), c.isActive ? t('statuses.active') : t('statuses.inactive')],
            [t('detail.notes'), c.notes ?? '—'],
          ].map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
              <dd className="break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        {c.type === 'customer' ? (
          <div className="mt-4 border-t border-slate-100 pt-4">
            <ReminderConsentSwitch contactId={c.id} source="contact" disabled={isDemo || !(can('contact:update') || can('pos:access') || can('report:inventory'))} />
          </div>
        ) : null}
      </Card>
      {c.type === 'customer' ? <CustomerSections data={data} /> : null}
      {c.type === 'supplier' ? <SupplierSections data={data} canPay={(can('supplier:update') || can('supplier:manage') || can('contact:update')) && !isDemo} /> : null}
      {c.type === 'other' ? <p className="text-sm text-slate-600">{t('detail.otherContact')}</p> : null}
      <ContactFormDialog open={editing} onOpenChange={setEditing} contact={c} />
    </div>
  );
}

function CustomerSections({ data }: { data: ContactSummary }) {
  const { t } = useTranslation('contacts');
  const sales = useMemo(() => {
    const column = dataTableColumns<ContactSummary['sales'][number]>();
    return [
      column.accessor('invoiceNumber', { header: t('detail.invoice'), meta: { rowHeader: true } }),
      column.accessor('date', { header: t('detail.date'), cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('totalCents', { header: t('detail.total'), meta: { numeric: true }, cell: ({ getValue }) => formatMoney(getValue()) }),
      column.accessor('balanceDueCents', { header: t('detail.due'), meta: { numeric: true }, cell: ({ getValue }) => (getValue() > 0 ? formatMoney(getValue()) : '—') }),
      column.accessor('paymentMethod', { header: t('detail.method') }),
      column.accessor('status', { header: t('detail.saleStatus') }),
    ];
  }, [t]);
  const payments = useMemo(() => {
    const column = dataTableColumns<ContactSummary['salePayments'][number]>();
    return [
      column.accessor('invoiceNumber', { header: t('detail.invoice'), meta: { rowHeader: true } }),
      column.accessor('at', { header: t('detail.date'), cell: ({ getValue }) => formatDateTime(getValue()) }),
      column.accessor('method', { header: t('detail.method') }),
      column.accessor('reference', { header: t('detail.reference'), cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('amountCents', { header: t('detail.amount'), meta: { numeric: true }, cell: ({ getValue }) => formatMoney(getValue()) }),
    ];
  }, [t]);
  const prescriptions = useMemo(() => {
    const column = dataTableColumns<ContactSummary['prescriptions'][number]>();
    return [
      column.accessor('productName', { header: t('detail.product'), meta: { rowHeader: true } }),
      column.accessor('date', { header: t('detail.date'), cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('doctorName', { header: t('detail.doctor'), cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('hospitalName', { header: t('detail.hospital'), cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('prescriptionNumber', { header: t('detail.prescriptionNumber'), cell: ({ getValue }) => getValue() ?? '—' }),
      column.accessor('invoiceNumber', { header: t('detail.invoice') }),
    ];
  }, [t]);
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-3">
        <StatCard label={t('detail.totalSales')} value={formatMoney(data.balance.totalCents)} />
        <StatCard label={t('detail.totalPaid')} value={formatMoney(data.balance.paidCents)} tone="positive" />
        <StatCard label={t('detail.owed')} value={formatMoney(data.balance.balanceCents)} tone={data.balance.balanceCents > 0 ? 'warning' : 'neutral'} />
      </div>
      <Card title={t('detail.sales')} headingLevel={2} flush>
        <DataTable caption={t('detail.sales')} columns={sales} data={data.sales} getRowId={(s) => s.id} empty={<p className="p-4 text-sm text-slate-600">{t('detail.noSales')}</p>} />
      </Card>
      <Card title={t('detail.salePayments')} headingLevel={2} flush>
        <DataTable caption={t('detail.salePayments')} columns={payments} data={data.salePayments} getRowId={(p) => `${p.saleId}:${p.at}:${p.method}:${p.amountCents}:${p.reference ?? ''}`} empty={<p className="p-4 text-sm text-slate-600">{t('detail.noPayments')}</p>} />
      </Card>
      <Card title={t('detail.prescriptions')} headingLevel={2} flush>
        <DataTable caption={t('detail.prescriptions')} columns={prescriptions} data={data.prescriptions} getRowId={(p) => `${p.saleId}:${p.productName}:${p.quantity}:${p.prescriptionNumber ?? ''}`} empty={<p className="p-4 text-sm text-slate-600">{t('detail.noPrescriptions')}</p>} />
      </Card>
    </>
  );
}

function SupplierSections({ data, canPay }: { data: ContactSummary; canPay: boolean }) {
  const { t } = useTranslation('contacts');
  const [paying, setPaying] = useState<SupplierPayment | null | 'new'>(null);
  const [deleting, setDeleting] = useState<SupplierPayment | null>(null);
  const remove = useDeletePayment();
  const credit = data.supplierPayments.reduce((sum, p) => sum + p.creditCents, 0);
  const invoices = useMemo(() => {
    const column = dataTableColumns<SupplierInvoice>();
    return [
      column.accessor('purchaseNumber', { header: t('detail.invoice'), meta: { rowHeader: true } }),
      column.accessor('date', { header: t('detail.date'), cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('totalCents', { header: t('detail.total'), meta: { numeric: true }, cell: ({ getValue }) => formatKes(getValue()) }),
      column.accessor('paidCents', { header: t('detail.paid'), meta: { numeric: true }, cell: ({ getValue }) => formatKes(getValue()) }),
      column.accessor('outstandingCents', { header: t('detail.outstanding'), meta: { numeric: true }, cell: ({ getValue }) => formatKes(getValue()) }),
      column.accessor('dueDate', { header: t('detail.dueDate'), cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('daysOverdue', {
        header: t('detail.overdue'),
        meta: { numeric: true },
        cell: ({ row: { original: i } }) => (i.outstandingCents > 0 && i.daysOverdue > 0 ? <Badge tone="danger">{i.daysOverdue}</Badge> : '—'),
      }),
    ];
  }, [t]);
  const payments = useMemo(() => {
    const column = dataTableColumns<SupplierPayment>();
    return [
      column.accessor('date', { header: t('detail.date'), meta: { rowHeader: true }, cell: ({ getValue }) => formatDate(getValue()) }),
      column.accessor('amountCents', { header: t('detail.amount'), meta: { numeric: true }, cell: ({ getValue }) => formatKes(getValue()) }),
      column.accessor('method', { header: t('detail.method'), cell: ({ getValue }) => t(`payment.methods.${getValue()}`) }),
      column.accessor('reference', { header: t('detail.reference'), cell: ({ getValue }) => getValue() ?? '—' }),
      column.display({
        id: 'allocated',
        header: t('detail.allocated'),
        cell: ({ row: { original: p } }) => p.allocationDetails.allocations.map((a) => `${a.invoiceNumber} (${formatKes(a.allocationAmount)})`).join(', ') || '—',
      }),
      column.accessor('creditCents', { header: t('detail.credit'), meta: { numeric: true }, cell: ({ getValue }) => (getValue() > 0 ? formatKes(getValue()) : '—') }),
      ...(canPay
        ? [
            column.display({
              id: 'actions',
              header: t('detail.actions'),
              meta: { headerClassName: 'text-right' },
              cell: ({ row: { original: p } }) => (
                <div className="flex justify-end gap-1">
                  <Button variant="outline" size="sm" aria-label={t('detail.editPaymentOf', { amount: formatKes(p.amountCents) })} onClick={() => setPaying(p)}>
                    {t('detail.editPayment')}
                  </Button>
                  <Button variant="ghost" size="sm" aria-label={t('detail.deletePaymentOf', { amount: formatKes(p.amountCents) })} onClick={() => setDeleting(p)}>
                    {t('detail.deletePayment')}
                  </Button>
                </div>
              ),
            }),
          ]
        : []),
    ];
  }, [t, canPay]);
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label={t('detail.totalPurchases')} value={formatKes(data.balance.totalCents)} />
        <StatCard label={t('detail.returns')} value={formatKes(data.balance.returnsCents)} />
        <StatCard label={t('detail.totalPaid')} value={formatKes(data.balance.paidCents)} tone="positive" />
        <StatCard label={data.balance.balanceCents < 0 ? t('detail.creditHeld') : t('detail.supplierBalance')} value={formatKes(Math.abs(data.balance.balanceCents))} tone={data.balance.balanceCents > 0 ? 'warning' : 'positive'} />
      </div>
      <Card
        title={t('detail.purchases')}
        headingLevel={2}
        flush
        actions={
          canPay ? (
            <Button size="sm" icon={<Banknote className="size-4" aria-hidden="true" />} onClick={() => setPaying('new')}>
              {t('detail.recordPayment')}
            </Button>
          ) : null
        }
      >
        <DataTable caption={t('detail.purchases')} columns={invoices} data={data.purchases} getRowId={(i) => i.id} empty={<p className="p-4 text-sm text-slate-600">{t('detail.noPurchases')}</p>} />
      </Card>
      <Card title={t('detail.supplierPayments')} headingLevel={2} flush description={credit > 0 ? `${t('detail.creditHeld')}: ${formatKes(credit)}` : undefined}>
        <DataTable caption={t('detail.supplierPayments')} columns={payments} data={data.supplierPayments} getRowId={(p) => p.id} empty={<p className="p-4 text-sm text-slate-600">{t('detail.noPayments')}</p>} />
      </Card>
      <SupplierPaymentDialog
        open={paying !== null}
        onOpenChange={(open) => (open ? undefined : setPaying(null))}
        supplier={{ id: data.contact.id, name: data.contact.name }}
        invoices={data.purchases}
        payment={paying === 'new' ? null : paying}
        today={pharmacyToday()}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('detail.deleteTitle')}
        description={t('detail.deleteText')}
        confirmLabel={t('detail.deletePayment')}
        destructive
        loading={remove.isPending}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            const result = await remove.mutateAsync(deleting.id);
            toast.success(result.message);
            setDeleting(null);
          } catch (error) {
            toast.error(`${t('payment.deleteFailed')}: ${errorMessage(error)}`);
          }
        }}
      />
    </>
  );
}
