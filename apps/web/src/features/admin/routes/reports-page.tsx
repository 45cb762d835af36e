import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDown, Printer } from 'lucide-react';
import type { AdminAnalyticsResponse } from '@pharmapoint/domain/admin';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Button } from '@/components/ui/button';
import { LoadingState } from '@/components/ui/loading-state';
import { ErrorState } from '@/components/ui/error-state';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatMoney, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { currentMonth, useAnalytics } from '@/features/admin/api/admin';
import { MonthField } from '@/features/admin/components/month-field';
import '@/features/admin/admin-catalogue';

function monthTitle(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, m! - 1, 1)).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

type Line = [label: string, value: string];

/** The report's lines, shared by the page and the PDF. */
function reportLines(data: AdminAnalyticsResponse, t: (key: string) => string): Line[] {
  const x = data.totals;
  return [
    [t('reports.signUps'), formatNumber(x.signUps)],
    [t('reports.licences'), formatMoney(x.licenceCents)],
    [t('reports.hosting'), formatMoney(x.hostingCents)],
    [t('reports.revenue'), formatMoney(x.licenceCents + x.hostingCents)],
    [t('reports.demoRegistrations'), formatNumber(x.demoRegistrations)],
    [t('reports.activePharmacies'), formatNumber(x.activePharmacies)],
    [t('reports.salesCount'), formatNumber(x.salesCount)],
    [t('reports.salesTotal'), formatMoney(x.salesTotalCents)],
  ];
}

/** The monthly report generator (issue 11 item 8): a month's platform figures as a printable page and a PDF. */
export default function ReportsPage() {
  const { t } = useTranslation('admin');
  const [month, setMonth] = useState(currentMonth());
  const analytics = useAnalytics(month);
  const [building, setBuilding] = useState(false);
  const data = analytics.data;
  const customers = data?.pharmacies.filter((p) => !p.isDemo) ?? [];

  async function downloadPdf() {
    if (!data) return;
    setBuilding(true);
    try {
      const { jsPDF } = await import('jspdf');
      const doc = new jsPDF({ unit: 'mm', format: 'a4' });
      let y = 20;
      doc.setFontSize(16);
      doc.text(`${t('reports.documentTitle')} — ${monthTitle(data.month)}`, 15, y);
      y += 10;
      doc.setFontSize(11);
      for (const [label, value] of reportLines(data, t)) {
        doc.text(label, 15, y);
        doc.text(value, 195, y, { align: 'right' });
        y += 7;
      }
      y += 5;
      doc.setFontSize(13);
      doc.text(t('reports.perPharmacy'), 15, y);
      y += 8;
      doc.setFontSize(10);
      for (const p of customers) {
        if (y > 280) {
          doc.addPage();
          y = 20;
        }
        doc.text(p.name.slice(0, 60), 15, y);
        doc.text(formatNumber(p.salesCount), 140, y, { align: 'right' });
        doc.text(formatMoney(p.salesTotalCents), 195, y, { align: 'right' });
        y += 6;
      }
      doc.save(`pharmapoint-report-${data.month}.pdf`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBuilding(false);
    }
  }

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title={t('reports.title')}
        description={t('reports.description')}
        actions={
          <>
            <Button variant="outline" icon={<Printer className="size-4" aria-hidden="true" />} onClick={() => window.print()} disabled={!data}>
              {t('reports.print')}
            </Button>
            <Button icon={<FileDown className="size-4" aria-hidden="true" />} onClick={() => void downloadPdf()} loading={building} disabled={!data}>
              {t('reports.pdf')}
            </Button>
          </>
        }
      />
      <MonthField value={month} onChange={setMonth} max={currentMonth()} />
      {analytics.isPending ? (
        <LoadingState />
      ) : analytics.isError ? (
        <ErrorState message={errorMessage(analytics.error)} onRetry={() => void analytics.refetch()} />
      ) : data ? (
        <Card title={`${t('reports.documentTitle')} — ${monthTitle(data.month)}`} className="print:border-0 print:shadow-none">
          <dl className="grid max-w-lg grid-cols-[1fr_auto] gap-x-6 gap-y-2 text-sm">
            {reportLines(data, t).map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className="text-right font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="mt-6 mb-2 font-semibold text-slate-900">{t('reports.perPharmacy')}</h3>
          <Table caption={t('reports.perPharmacy')}>
            <THead>
              <Tr>
                <Th>{t('saas.pharmacy')}</Th>
                <Th numeric>{t('analytics.salesCount')}</Th>
                <Th numeric>{t('analytics.salesTotal')}</Th>
              </Tr>
            </THead>
            <TBody>
              {customers.map((p) => (
                <Tr key={p.id}>
                  <Th scope="row">{p.name}</Th>
                  <Td numeric>{formatNumber(p.salesCount)}</Td>
                  <Td numeric>{formatMoney(p.salesTotalCents)}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </Card>
      ) : null}
    </div>
  );
}
