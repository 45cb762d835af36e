import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { FileDown, FileSpreadsheet, Printer } from 'lucide-react';
import {
  DDA_REGISTER_PAGE_SIZE,
  ddaParticulars,
  ddaRangeProblem,
  ddaReference,
  defaultDdaRange,
  type DdaRegister,
  type DdaRegisterLine,
} from '@pharmapoint/domain/dda-register';
import { PRODUCT_PAGE_MAX } from '@pharmapoint/domain/products';
import { isCalendarDate } from '@pharmapoint/domain/text';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Table, TBody, Td, TFoot, Th, THead, Tr } from '@/components/ui/table';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useProducts } from '@/features/products/api/products';
import { fetchWholeDdaRegister, useDdaRegister } from '@/features/reports/api/dda-register';
import { downloadDdaCsv, downloadDdaPdf, type DdaRegisterHeading, type Translate } from '@/features/reports/components/dda-register-export';
import ddaCatalogue from '@/i18n/en/dda.json';
import { registerCatalogue } from '@/i18n/register';
import { errorMessage } from '@/lib/api';
import { formatDate, formatNumber, pharmacyToday } from '@/lib/format';
import { useLiveStock } from '@/lib/live-stock/live-stock';
import { toast } from '@/lib/toast';
import { pageParam, useUrlFilters } from '@/lib/use-url-filters';

registerCatalogue('dda', ddaCatalogue);

/** The prescription's details under a dispensing line: number and date, patient id, prescriber's licence. */
function PrescriptionDetails({ line }: { line: DdaRegisterLine }) {
  const { t } = useTranslation('dda');
  const d = line.dispensing;
  if (!d || line.kind !== 'dispensing') return null;
  const parts = [
    d.prescriptionNumber ? t('prescription', { number: d.prescriptionNumber }) : null,
    d.prescriptionDate ? t('prescriptionDate', { date: formatDate(d.prescriptionDate) }) : null,
    d.patientId ? t('patientId', { id: d.patientId }) : null,
    d.prescriberLicence ? t('licence', { licence: d.prescriberLicence }) : null,
  ].filter(Boolean);
  return parts.length > 0 ? <span className="block text-xs text-slate-600">{parts.join(' · ')}</span> : null;
}

/** One drug's register in one branch, on screen: the lines between the opening balance and the totals. */
function RegisterCard({ register, from, to }: { register: DdaRegister; from: string; to: string }) {
  const { t } = useTranslation('dda');
  return (
    <Card
      title={`${register.productName} — ${register.branchName}`}
      description={register.sku ?? undefined}
      flush
      data-register={`${register.productId}:${register.branchId}`}
    >
      <dl className="grid grid-cols-2 gap-3 border-b border-slate-100 p-4 text-sm sm:grid-cols-4">
        {[
          [t('openingBalance'), register.openingBalance],
          [t('totalReceived'), register.totalReceived],
          [t('totalIssued'), register.totalIssued],
          [t('closingBalance'), register.closingBalance],
        ].map(([label, value]) => (
          <div key={label as string}>
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900">{formatNumber(value as number)}</dd>
          </div>
        ))}
      </dl>
      {register.truncated ? <p className="border-b border-slate-100 bg-amber-50 p-3 text-sm text-amber-900">{t('truncated', { shown: register.lines.length, count: register.lineCount })}</p> : null}
      <Table caption={t('caption', { product: register.productName, branch: register.branchName })}>
        <THead>
          <Tr>
            <Th>{t('columns.date')}</Th>
            <Th>{t('columns.particulars')}</Th>
            <Th>{t('columns.reference')}</Th>
            <Th>{t('columns.batch')}</Th>
            <Th numeric>{t('columns.received')}</Th>
            <Th numeric>{t('columns.issued')}</Th>
            <Th numeric>{t('columns.balance')}</Th>
            <Th>{t('columns.enteredBy')}</Th>
          </Tr>
        </THead>
        <TBody>
          <Tr>
            <Td className="whitespace-nowrap">{formatDate(from)}</Td>
            <Td className="font-medium">{t('openingBalance')}</Td>
            <Td />
            <Td />
            <Td numeric />
            <Td numeric />
            <Td numeric className="font-medium">{formatNumber(register.openingBalance)}</Td>
            <Td />
          </Tr>
          {register.lines.length === 0 ? (
            <Tr>
              <Td colSpan={8} className="text-slate-600">{t('noLines')}</Td>
            </Tr>
          ) : (
            register.lines.map((line) => (
              <Tr key={line.movementId} data-kind={line.kind}>
                <Td className="whitespace-nowrap">{formatDate(line.date)}</Td>
                <Td className="min-w-56">
                  <span className="block text-xs font-medium uppercase tracking-wide text-slate-500">{t(`kinds.${line.kind}`)}</span>
                  {ddaParticulars(line)}
                  <PrescriptionDetails line={line} />
                </Td>
                <Td className="whitespace-nowrap">{ddaReference(line)}</Td>
                <Td className="whitespace-nowrap">{line.batchNumber ?? t('noBatchNumber')}</Td>
                <Td numeric>{line.received ? formatNumber(line.received) : ''}</Td>
                <Td numeric>{line.issued ? formatNumber(line.issued) : ''}</Td>
                <Td numeric className="font-medium">{formatNumber(line.balance)}</Td>
                <Td className="whitespace-nowrap">{line.enteredBy ?? ''}</Td>
              </Tr>
            ))
          )}
        </TBody>
        <TFoot>
          <Tr>
            <Td className="whitespace-nowrap">{formatDate(to)}</Td>
            <Td className="font-semibold">{t('totalsAndClosing')}</Td>
            <Td />
            <Td />
            <Td numeric className="font-semibold">{formatNumber(register.totalReceived)}</Td>
            <Td numeric className="font-semibold">{formatNumber(register.totalIssued)}</Td>
            <Td numeric className="font-semibold">{formatNumber(register.closingBalance)}</Td>
            <Td />
          </Tr>
        </TFoot>
      </Table>
      {register.batches.length > 0 ? (
        <div className="border-t border-slate-100 p-4 text-sm">
          <h3 className="font-medium text-slate-900">{t('batches')}</h3>
          <ul className="mt-1 space-y-0.5 text-slate-700">
            {register.batches.map((b) => (
              <li key={b.batchId}>
                {t('batchSummary', {
                  batch: `${b.batchNumber ?? t('noBatchNumber')}${b.expiryDate ? ` (${formatDate(b.expiryDate)})` : ''}`,
                  opening: formatNumber(b.openingBalance),
                  received: formatNumber(b.totalReceived),
                  issued: formatNumber(b.totalIssued),
                  closing: formatNumber(b.closingBalance),
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}

/**
 * The printed register, hidden on screen: a page per drug and branch (break-after: page) headed with the pharmacy,
 * the branch, the drug, its batches and the period; lines with date, particulars, invoice or prescription, received,
 * issued, balance and who entered it; totals and the closing balance at the foot. Printing shows only this.
 */
function PrintedRegister({ heading, registers }: { heading: DdaRegisterHeading; registers: readonly DdaRegister[] }) {
  const { t } = useTranslation('dda');
  const period = t('period', { from: formatDate(heading.from), to: formatDate(heading.to) });
  return createPortal(
    <div className="pp-dda-print" data-testid="dda-print">
      <style>{`
        .pp-dda-print { display: none; }
        @media print {
          @page { size: A4 landscape; margin: 12mm; }
          body > *:not(.pp-dda-print) { display: none !important; }
          .pp-dda-print { display: block; color: #000; font-size: 9pt; font-family: Georgia, 'Times New Roman', serif; }
          .pp-dda-print section { break-after: page; page-break-after: always; }
          .pp-dda-print h1 { font-size: 14pt; margin: 0; }
          .pp-dda-print h2 { font-size: 12pt; margin: 1mm 0; }
          .pp-dda-print .meta { margin: 0 0 3mm; }
          .pp-dda-print table { width: 100%; border-collapse: collapse; }
          .pp-dda-print thead { display: table-header-group; }
          .pp-dda-print th, .pp-dda-print td { border: 0.3mm solid #000; padding: 1mm 1.5mm; vertical-align: top; text-align: left; }
          .pp-dda-print .n { text-align: right; white-space: nowrap; }
          .pp-dda-print tfoot td { font-weight: bold; }
        }
      `}</style>
      {registers.map((register) => (
        <section key={`${register.productId}:${register.branchId}`}>
          <h1>{`${heading.pharmacyName} — ${t('title')}`}</h1>
          <h2>{`${register.productName}${register.sku ? ` (${register.sku})` : ''}`}</h2>
          <p className="meta">
            {`${t('branchLabel')}: ${register.branchName} · ${period} · ${t('unitLabel')}: ${register.unit}`}
            {register.batches.length > 0 ? ` · ${t('batchLabel')}: ${register.batches.map((b) => b.batchNumber ?? t('noBatchNumber')).join(', ')}` : ''}
          </p>
          <table>
            <thead>
              <tr>
                <th>{t('columns.date')}</th>
                <th>{t('columns.particulars')}</th>
                <th>{t('columns.reference')}</th>
                <th>{t('columns.batch')}</th>
                <th className="n">{t('columns.received')}</th>
                <th className="n">{t('columns.issued')}</th>
                <th className="n">{t('columns.balance')}</th>
                <th>{t('columns.enteredBy')}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>{formatDate(heading.from)}</td>
                <td>{t('openingBalance')}</td>
                <td />
                <td />
                <td className="n" />
                <td className="n" />
                <td className="n">{formatNumber(register.openingBalance)}</td>
                <td />
              </tr>
              {register.lines.map((line) => (
                <tr key={line.movementId}>
                  <td>{formatDate(line.date)}</td>
                  <td>{ddaParticulars(line)}</td>
                  <td>{ddaReference(line)}</td>
                  <td>{line.batchNumber ?? ''}</td>
                  <td className="n">{line.received ? formatNumber(line.received) : ''}</td>
                  <td className="n">{line.issued ? formatNumber(line.issued) : ''}</td>
                  <td className="n">{formatNumber(line.balance)}</td>
                  <td>{line.enteredBy ?? ''}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td>{formatDate(heading.to)}</td>
                <td>{t('totalsAndClosing')}</td>
                <td />
                <td />
                <td className="n">{formatNumber(register.totalReceived)}</td>
                <td className="n">{formatNumber(register.totalIssued)}</td>
                <td className="n">{formatNumber(register.closingBalance)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </section>
      ))}
    </div>,
    document.body,
  );
}

/** /app/reports/dda (report:advanced): the DDA register for a period and branch, to read, print, or download as PDF and CSV. */
export default function DdaReportPage() {
  const { t } = useTranslation('dda');
  const translate: Translate = (key, values) => t(key, values ?? {});
  const { me, can } = usePermissions();
  useLiveStock();
  // The drugs to choose from: the controlled products (for whoever may read the catalogue).
  const drugs = useProducts({ dda: 'true', limit: PRODUCT_PAGE_MAX }, { enabled: can('product:read') });
  const { params, update } = useUrlFilters();
  const defaults = defaultDdaRange(pharmacyToday());
  const from = params.get('from') || defaults.from;
  const to = params.get('to') || defaults.to;
  const branchId = params.get('branchId') ?? '';
  const productId = params.get('productId') ?? '';
  const page = pageParam(params);
  // A range the server would refuse is not asked for: the field says why.
  const fromError = isCalendarDate(from) ? null : t('invalidDate');
  const toError = !isCalendarDate(to) ? t('invalidDate') : fromError === null ? ddaRangeProblem(from, to) : null;
  const problem = fromError ?? toError;
  const report = useDdaRegister({ from, to, branchId: branchId || undefined, productId: productId || undefined, page, pageSize: DDA_REGISTER_PAGE_SIZE }, problem === null);
  const [exporting, setExporting] = useState<'pdf' | 'csv' | null>(null);
  const data = problem === null ? report.data : undefined;

  async function download(kind: 'pdf' | 'csv') {
    setExporting(kind);
    try {
      const whole = await fetchWholeDdaRegister({ from, to, branchId: branchId || undefined, productId: productId || undefined });
      const heading = { pharmacyName: whole.pharmacyName, from, to };
      if (kind === 'csv') downloadDdaCsv(heading, whole.registers, translate);
      else await downloadDdaPdf(heading, whole.registers, translate);
    } catch (error) {
      toast.error(`${t('exportFailed')} ${errorMessage(error)}`);
    } finally {
      setExporting(null);
    }
  }

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <Button variant="outline" icon={<Printer className="size-4" aria-hidden="true" />} onClick={() => window.print()} disabled={!data}>
              {t('print')}
            </Button>
            <Button variant="outline" icon={<FileDown className="size-4" aria-hidden="true" />} onClick={() => void download('pdf')} loading={exporting === 'pdf'} disabled={!data || exporting !== null}>
              {t('pdf')}
            </Button>
            <Button variant="outline" icon={<FileSpreadsheet className="size-4" aria-hidden="true" />} onClick={() => void download('csv')} loading={exporting === 'csv'} disabled={!data || exporting !== null}>
              {t('csv')}
            </Button>
          </>
        }
      />
      <Card>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label={t('filters')}>
          <Field label={t('from')} error={fromError ?? undefined}>
            <Input type="date" value={from} max={to} onChange={(e) => update({ from: e.target.value || defaults.from })} />
          </Field>
          <Field label={t('to')} error={toError ?? undefined}>
            <Input type="date" value={to} min={from} onChange={(e) => update({ to: e.target.value || defaults.to })} />
          </Field>
          <Field label={t('branch')}>
            <Select
              value={branchId}
              placeholder={t('allBranches')}
              options={(me?.allowedBranches ?? []).map((b) => ({ value: b.id, label: b.name }))}
              onChange={(e) => update({ branchId: e.target.value })}
            />
          </Field>
          {drugs.data ? (
            <Field label={t('drug')}>
              <Select
                value={productId}
                placeholder={t('allDrugs')}
                options={drugs.data.items.map((p) => ({ value: p.id, label: p.name }))}
                onChange={(e) => update({ productId: e.target.value })}
              />
            </Field>
          ) : null}
        </div>
      </Card>
      {problem !== null ? null : report.isPending ? (
        <LoadingState message={t('loading')} />
      ) : report.isError || !data ? (
        <ErrorState message={`${t('loadFailed')} ${errorMessage(report.error)}`} onRetry={() => void report.refetch()} />
      ) : data.registers.length === 0 ? (
        <EmptyState title={t('emptyTitle')} description={t('emptyDescription')} />
      ) : (
        <>
          <p className="text-sm text-slate-600">
            {t('period', { from: formatDate(data.from), to: formatDate(data.to) })} · {t('registerCount', { count: data.total })}
          </p>
          {data.registers.map((register) => (
            <RegisterCard key={`${register.productId}:${register.branchId}`} register={register} from={data.from} to={data.to} />
          ))}
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPageChange={(p) => update({ page: String(p) })} />
          <PrintedRegister heading={{ pharmacyName: data.pharmacyName, from: data.from, to: data.to }} registers={data.registers} />
        </>
      )}
    </div>
  );
}
