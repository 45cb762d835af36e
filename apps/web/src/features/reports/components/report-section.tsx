import '@/features/reports/sales-report-i18n';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { downloadCsv, type ExportColumn } from '@/lib/report-export';

/** A column of a report table: what the screen shows (`render`, else the exported value) and what exports carry. */
export interface ReportColumn<Row> extends ExportColumn<Row> {
  render?: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** One table of the report: what it shows is exactly what its CSV holds (the same rows and columns). */
export interface ReportTableData<Row> {
  id: string;
  title: string;
  rows: readonly Row[];
  columns: readonly ReportColumn<Row>[];
  rowKey: (row: Row) => string;
}

/**
 * A report table in a card, with a CSV download of exactly its rows and columns. `footer` holds its pager; `hint`
 * a line under the title.
 */
export function ReportSection<Row>({ table, fileName, hint, footer, toolbar }: { table: ReportTableData<Row>; fileName: string; hint?: ReactNode; footer?: ReactNode; toolbar?: ReactNode }) {
  const { t } = useTranslation('salesReport');
  return (
    <Card
      title={table.title}
      description={hint}
      headingLevel={2}
      flush
      className="break-inside-avoid"
      actions={
        <Button
          variant="outline"
          size="sm"
          className="print:hidden"
          icon={<Download className="size-4" aria-hidden="true" />}
          aria-label={t('exportCsvOf', { table: table.title })}
          disabled={table.rows.length === 0}
          onClick={() => downloadCsv(fileName, table.rows, table.columns)}
        >
          {t('exportCsv')}
        </Button>
      }
    >
      {toolbar ? <div className="border-b border-slate-100 p-4 print:hidden">{toolbar}</div> : null}
      {table.rows.length === 0 ? (
        <p className="p-4 text-sm text-slate-600">{t('noRows')}</p>
      ) : (
        <Table caption={table.title}>
          <THead>
            <Tr>
              {table.columns.map((c) => (
                <Th key={c.header} numeric={c.numeric}>
                  {c.header}
                </Th>
              ))}
            </Tr>
          </THead>
          <TBody>
            {table.rows.map((row) => (
              <Tr key={table.rowKey(row)}>
                {table.columns.map((c, i) =>
                  i === 0 ? (
                    <Th key={c.header} scope="row" className="font-medium normal-case tracking-normal text-slate-900">
                      {c.render ? c.render(row) : c.value(row)}
                    </Th>
                  ) : (
                    <Td key={c.header} numeric={c.numeric} className="whitespace-nowrap">
                      {c.render ? c.render(row) : c.value(row)}
                    </Td>
                  ),
                )}
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {footer ? <div className="border-t border-slate-100 p-2 print:hidden">{footer}</div> : null}
    </Card>
  );
}
