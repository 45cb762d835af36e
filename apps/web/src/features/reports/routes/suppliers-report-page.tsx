import { Fragment, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import Papa from 'papaparse';
import { Download, Printer, RefreshCw, Settings } from 'lucide-react';
import { formatKes, type SupplierBalanceRow } from '@pharmapoint/domain/supplier-payments';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { StatCard } from '@/components/ui/stat-card';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSupplierOpenInvoices, useSupplierReport } from '../components/suppliers-api';
import { SuppliersSettingsDialog } from '../components/suppliers-settings-dialog';

const STATUS_TONE = { Outstanding: 'warning', Overpaid: 'info', Settled: 'success' } as const;

function bucketTone(bucket: string): 'success' | 'info' | 'warning' | 'danger' | 'neutral' {
  if (bucket === 'Settled') return 'success';
  if (bucket === 'Credit Balance') return 'info';
  if (bucket === 'Current') return 'neutral';
  return bucket.includes('+') ? 'danger' : 'warning';
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An opened row: the supplier's open invoices, loaded from the server when the row is opened (decision 0042). */
function OpenInvoicesRow({ supplierId, supplierName }: { supplierId: string; supplierName: string }) {
  const { t } = useTranslation('contacts');
  const invoices = useSupplierOpenInvoices(supplierId);
  return (
    <Tr>
      <Td colSpan={9} className="bg-slate-50">
        {invoices.isPending ? <LoadingState message={t('report.loading')} /> : null}
        {invoices.isError ? <ErrorState message={`${t('report.loadFailed')} ${errorMessage(invoices.error)}`} onRetry={() => void invoices.refetch()} /> : null}
        {invoices.data ? (
          <Table caption={t('report.showInvoices', { name: supplierName })}>
            <THead>
              <Tr>
                <Th>{t('report.invoice')}</Th>
                <Th>{t('report.invoiceDate')}</Th>
                <Th>{t('report.dueDate')}</Th>
                <Th numeric>{t('report.creditDays')}</Th>
                <Th numeric>{t('report.outstanding')}</Th>
                <Th numeric>{t('report.daysOverdue')}</Th>
              </Tr>
            </THead>
            <TBody>
              {invoices.data.invoices.map((i) => (
                <Tr key={i.id}>
                  <Th scope="row">{i.purchaseNumber}</Th>
                  <Td>{formatDate(i.date)}</Td>
                  <Td>{formatDate(i.dueDate)}</Td>
                  <Td numeric>{i.creditDays}</Td>
                  <Td numeric>{formatKes(i.outstandingCents)}</Td>
                  <Td numeric>{i.daysOverdue > 0 ? <Badge tone="danger">{i.daysOverdue}</Badge> : 0}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        ) : null}
      </Td>
    </Tr>
  );
}

/** /app/reports/suppliers (report:financial): what is owed to each supplier, its status, aging and outstanding invoices. */
export default function SuppliersReportPage() {
  const { t } = useTranslation('contacts');
  const [search, setSearch] = useState('');
  const [nonZeroOnly, setNonZeroOnly] = useState(false);
  const [minBalance, setMinBalance] = useState('');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [typed] = useDebouncedValue(search.trim(), 300);
  const minCents = parseMoneyToCents(minBalance.trim() || '0') ?? 0;
  const query = useMemo(() => ({ ...(typed ? { search: typed } : {}), nonZeroOnly: String(nonZeroOnly), minBalanceCents: String(minCents) }), [typed, nonZeroOnly, minCents]);
  const report = useSupplierReport(query);
  const data = report.data;
  const labels = data?.bucketLabels ?? ['Current', '1-30 days overdue', '31-60 days overdue', '60+ days overdue'];

  function exportCsv(rows: SupplierBalanceRow[]) {
    const csv = Papa.unparse(
      rows.map((r) => ({
        Supplier: r.supplierName,
        'Total Purchases': (r.totalPurchases / 100).toFixed(2),
        Returns: (r.totalReturns / 100).toFixed(2),
        'Total Paid': (r.totalPaid / 100).toFixed(2),
        Balance: (r.balance / 100).toFixed(2),
        Status: r.balanceStatus,
        'Days Outstanding': r.daysOutstanding,
        Aging: r.ageBucket,
        [labels[0]!]: (r.agingBreakdown.current / 100).toFixed(2),
        [labels[1]!]: (r.agingBreakdown.days1to30 / 100).toFixed(2),
        [labels[2]!]: (r.agingBreakdown.days31to60 / 100).toFixed(2),
        [labels[3]!]: (r.agingBreakdown.over60 / 100).toFixed(2),
        'Outstanding Invoices': r.outstandingInvoiceCount,
        'Last Purchase': r.lastPurchaseDate ?? '',
        'Last Payment': r.lastPaymentDate ?? '',
      })),
    );
    download(`supplier-balances-${data?.today ?? 'report'}.csv`, csv);
  }

  return (
    <div className="space-y-4">
      <PageHeader
        title={data?.settings.reportTitle ?? t('report.title')}
        description={data ? `${t('report.description')} ${t('report.generated', { date: formatDate(data.today) })}` : t('report.description')}
        actions={
          <div className="flex flex-wrap gap-2 print:hidden">
            <Button
              variant="outline"
              icon={<RefreshCw className="size-4" aria-hidden="true" />}
              loading={report.isFetching && !report.isPending}
              onClick={async () => {
                const result = await report.refetch();
                if (result.isError) toast.error(t('report.loadFailed'));
                else toast.success(t('report.refreshed'));
              }}
            >
              {t('report.refresh')}
            </Button>
            <Button variant="outline" icon={<Download className="size-4" aria-hidden="true" />} disabled={!data} onClick={() => data && exportCsv(data.rows)}>
              {t('report.exportCsv')}
            </Button>
            <Button variant="outline" icon={<Printer className="size-4" aria-hidden="true" />} onClick={() => window.print()}>
              {t('report.print')}
            </Button>
            <Button variant="outline" icon={<Settings className="size-4" aria-hidden="true" />} disabled={!data} onClick={() => setSettingsOpen(true)}>
              {t('report.settings')}
            </Button>
          </div>
        }
      />
      <form role="search" aria-label={t('report.filters')} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 print:hidden" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('report.search')}>
          <Input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </Field>
        <Field label={t('report.minBalance')}>
          <Input inputMode="decimal" value={minBalance} onChange={(event) => setMinBalance(event.target.value)} placeholder="0.00" />
        </Field>
        <div className="flex items-end pb-2">
          <Checkbox label={t('report.nonZeroOnly')} checked={nonZeroOnly} onCheckedChange={setNonZeroOnly} />
        </div>
      </form>
      {report.isPending ? <LoadingState message={t('report.loading')} /> : null}
      {report.isError ? <ErrorState message={`${t('report.loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} /> : null}
      {data ? (
        <>
          <div className="grid gap-3 sm:grid-cols-3">
            <StatCard label={t('report.totalPurchases')} value={formatKes(data.totals.totalPurchases)} />
            <StatCard label={t('report.totalPaid')} value={formatKes(data.totals.totalPaid)} tone="positive" />
            <StatCard
              label={t('report.totalBalance')}
              value={formatKes(data.totals.totalBalance)}
              tone={data.totals.totalBalance > 0 ? 'warning' : 'positive'}
              hint={t('report.statusCounts', { outstanding: data.totals.outstanding, overpaid: data.totals.overpaid, settled: data.totals.settled })}
            />
          </div>
          <Card title={t('report.aging')} headingLevel={2}>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              {(['current', 'days1to30', 'days31to60', 'over60'] as const).map((key, i) => (
                <div key={key}>
                  <dt className="text-xs font-medium text-slate-500">{labels[i]}</dt>
                  <dd className="font-semibold text-slate-900">{formatKes(data.totals.agingBreakdown[key])}</dd>
                </div>
              ))}
            </dl>
          </Card>
          {data.rows.length === 0 ? (
            <EmptyState title={t('report.empty')} />
          ) : (
            <Card title={t('report.caption')} headingLevel={2} flush>
              <div className="overflow-x-auto">
                <Table caption={t('report.caption')}>
                  <THead>
                    <Tr>
                      <Th>{t('report.supplier')}</Th>
                      <Th numeric>{t('report.purchases')}</Th>
                      <Th numeric>{t('report.paid')}</Th>
                      <Th numeric>{t('report.balance')}</Th>
                      <Th>{t('report.status')}</Th>
                      <Th numeric>{t('report.daysOutstanding')}</Th>
                      <Th>{t('report.bucket')}</Th>
                      <Th>{t('report.lastPayment')}</Th>
                      <Th className="print:hidden">{t('report.invoices')}</Th>
                    </Tr>
                  </THead>
                  <TBody>
                    {data.rows.map((row) => (
                      <Fragment key={row.supplierId}>
                        <Tr data-supplier-id={row.supplierId}>
                          <Th scope="row" className="font-medium normal-case tracking-normal text-slate-900">
                            <Link to={`/app/contacts/${row.supplierId}`} className="hover:text-primary hover:underline">
                              {row.supplierName}
                            </Link>
                          </Th>
                          <Td numeric>{formatKes(row.totalPurchases - row.totalReturns)}</Td>
                          <Td numeric>{formatKes(row.totalPaid)}</Td>
                          <Td numeric className="font-semibold">
                            {formatKes(row.balance)}
                          </Td>
                          <Td>
                            <Badge tone={STATUS_TONE[row.balanceStatus]}>{t(`report.statuses.${row.balanceStatus}`)}</Badge>
                          </Td>
                          <Td numeric>{row.daysOutstanding}</Td>
                          <Td>
                            <Badge tone={bucketTone(row.ageBucket)}>{row.ageBucket}</Badge>
                          </Td>
                          <Td>{row.lastPaymentDate ? formatDate(row.lastPaymentDate) : '—'}</Td>
                          <Td className="whitespace-nowrap print:hidden">
                            {row.outstandingInvoiceCount > 0 ? (
                              <Button variant="ghost" size="sm" aria-expanded={expanded === row.supplierId} aria-label={t('report.showInvoices', { name: row.supplierName })} onClick={() => setExpanded(expanded === row.supplierId ? null : row.supplierId)}>
                                {row.outstandingInvoiceCount}
                              </Button>
                            ) : (
                              '—'
                            )}
                            <Link to={`/app/contacts/${row.supplierId}`} className={buttonClasses('outline', 'sm')} aria-label={t('report.payOf', { name: row.supplierName })}>
                              {t('report.pay')}
                            </Link>
                          </Td>
                        </Tr>
                        {expanded === row.supplierId ? <OpenInvoicesRow supplierId={row.supplierId} supplierName={row.supplierName} /> : null}
                      </Fragment>
                    ))}
                  </TBody>
                </Table>
              </div>
            </Card>
          )}
          <SuppliersSettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} settings={data.settings} />
        </>
      ) : null}
    </div>
  );
}
