import '@/features/reports/report-pages-i18n';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, FileSpreadsheet, Printer } from 'lucide-react';
import { reportRangeProblem } from '@pharmapoint/domain/report-period';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { formatDate, formatDateTime, formatMoney, formatNumber } from '@/lib/format';

/** The report's buttons: CSV of what is on screen, an Excel workbook (when the report has one), Print. Hidden in print. */
export function ReportActions({ onCsv, onExcel, disabled }: { onCsv: () => void; onExcel?: () => void; disabled: boolean }) {
  const { t } = useTranslation('reportPages');
  return (
    <div className="flex flex-wrap gap-2 print:hidden">
      <Button variant="outline" icon={<Download className="size-4" aria-hidden="true" />} disabled={disabled} onClick={onCsv}>
        {t('exportCsv')}
      </Button>
      {onExcel ? (
        <Button variant="outline" icon={<FileSpreadsheet className="size-4" aria-hidden="true" />} disabled={disabled} onClick={onExcel}>
          {t('exportExcel')}
        </Button>
      ) : null}
      <Button variant="outline" icon={<Printer className="size-4" aria-hidden="true" />} onClick={() => window.print()}>
        {t('print')}
      </Button>
    </div>
  );
}

/** What a printed report starts with: its title, the filters in force and when it was printed (only on paper). */
export function PrintHeading({ title, filters }: { title: string; filters: readonly string[] }) {
  const { t } = useTranslation('reportPages');
  return (
    <div className="hidden print:block">
      <h1 className="text-xl font-bold">{title}</h1>
      {filters.map((line) => (
        <p key={line} className="text-sm">
          {line}
        </p>
      ))}
      <p className="text-sm">{t('printed', { date: formatDateTime(new Date()) })}</p>
    </div>
  );
}

/** The range's words for the printed heading. */
export function periodLine(t: (key: string, values?: Record<string, string>) => string, from: string, to: string): string {
  return t('period', { from: formatDate(from), to: formatDate(to) });
}

/** From / To of a dated report, with the range's problem (an end before the start, more than five years) beside To. */
export function DateRangeFields({ from, to, onChange }: { from: string; to: string; onChange: (range: { from?: string; to?: string }) => void }) {
  const { t } = useTranslation('reportPages');
  const problem = reportRangeProblem(from || undefined, to || undefined);
  return (
    <>
      <Field label={t('from')}>
        <Input type="date" value={from} onChange={(e) => onChange({ from: e.target.value })} />
      </Field>
      <Field label={t('to')} error={problem ?? undefined}>
        <Input type="date" value={to} onChange={(e) => onChange({ to: e.target.value })} />
      </Field>
    </>
  );
}

export interface BreakdownRow {
  key: string;
  label: string;
  count?: number;
  cents: number;
}

/** A small table of a breakdown: label, count (when given) and amount, with the total underneath. */
export function BreakdownTable({ caption, labelHeader, countHeader, amountHeader, rows, extra }: {
  caption: string;
  labelHeader: string;
  countHeader?: string;
  amountHeader: string;
  rows: readonly BreakdownRow[];
  extra?: ReactNode;
}) {
  return (
    <Table caption={caption}>
      <THead>
        <Tr>
          <Th scope="col">{labelHeader}</Th>
          {countHeader ? <Th scope="col" className="text-right">{countHeader}</Th> : null}
          <Th scope="col" className="text-right">{amountHeader}</Th>
        </Tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.key}>
            <Th scope="row" className="font-normal">{row.label}</Th>
            {countHeader ? <Td className="text-right tabular-nums">{formatNumber(row.count ?? 0)}</Td> : null}
            <Td className="whitespace-nowrap text-right tabular-nums">{formatMoney(row.cents)}</Td>
          </Tr>
        ))}
        {extra}
      </TBody>
    </Table>
  );
}

/** A report row's product: its name linking to its stock history, its SKU under it. */
export function ProductCell({ productId, name, sku }: { productId: string; name: string; sku: string | null | undefined }) {
  return (
    <>
      <Link to={`/app/products/history/${productId}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
        {name}
      </Link>
      {sku ? <span className="block text-xs text-slate-600">{sku}</span> : null}
    </>
  );
}
