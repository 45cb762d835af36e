import '@/features/dashboard/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_HEIGHT, type DashboardSalesResponse, type Granularity, type SalesSeriesPoint } from '@pharmapoint/domain/dashboard';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { Field } from '@/components/ui/field';
import { formatMoney } from '@/lib/format';

type ViewMode = 'period' | 'yearly';
type ChartType = 'bar' | 'line';
type DataType = 'total' | 'profit' | 'all';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A period's label on the x-axis: 26 Nov (a day or the Sunday a week starts), Nov 2026 (a month). */
export function periodTick(period: string, granularity: Granularity): string {
  const month = MONTHS[Number(period.slice(5, 7)) - 1] ?? '';
  if (granularity === 'month') return `${month} ${period.slice(0, 4)}`;
  return `${Number(period.slice(8, 10))} ${month}`;
}

/** The y-axis in thousands: 12,500.00 is 12.5K. */
export function thousands(cents: number): string {
  const value = cents / 100 / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)}K`;
}

/**
 * The sales chart (loaded lazily: the chart library is not part of any other screen's first load): the period of
 * the filter by day, week or month, or the last 12 months; bars or lines; revenue, profit or both.
 */
export default function SalesChart({ data }: { data: DashboardSalesResponse }) {
  const { t } = useTranslation('overview');
  const [view, setView] = useState<ViewMode>('period');
  const [type, setType] = useState<ChartType>('bar');
  const [dataType, setDataType] = useState<DataType>('total');
  const points: SalesSeriesPoint[] = view === 'yearly' ? data.yearly : data.series;
  const granularity: Granularity = view === 'yearly' ? 'month' : data.range.granularity;
  const rows = points.map((p) => ({ label: periodTick(p.period, granularity), revenue: p.revenueCents, profit: p.profitCents }));
  const series = [
    ...(dataType !== 'profit' ? [{ key: 'revenue', name: t('chart.revenue'), colour: 'var(--color-primary, #2563eb)' }] : []),
    ...(dataType !== 'total' ? [{ key: 'profit', name: t('chart.profit'), colour: '#059669' }] : []),
  ];
  const total = points.reduce((a, p) => a + p.revenueCents, 0);
  const title = view === 'yearly' ? t('chart.yearlyTitle') : t('chart.periodTitle', { label: data.range.label });
  const money = (value: unknown) => formatMoney(typeof value === 'number' ? value : 0);
  const Chart = type === 'bar' ? BarChart : LineChart;
  return (
    <Card
      title={title}
      actions={
        <div className="grid grid-cols-3 gap-2">
          <Field label={t('chart.view')}>
            <Select value={view} onChange={(e) => setView(e.target.value as ViewMode)} options={[{ value: 'period', label: t('chart.period') }, { value: 'yearly', label: t('chart.yearly') }]} />
          </Field>
          <Field label={t('chart.type')}>
            <Select value={type} onChange={(e) => setType(e.target.value as ChartType)} options={[{ value: 'bar', label: t('chart.bar') }, { value: 'line', label: t('chart.line') }]} />
          </Field>
          <Field label={t('chart.data')}>
            <Select
              value={dataType}
              onChange={(e) => setDataType(e.target.value as DataType)}
              options={[{ value: 'total', label: t('chart.revenue') }, { value: 'profit', label: t('chart.profit') }, { value: 'all', label: t('chart.all') }]}
            />
          </Field>
        </div>
      }
    >
      <div role="img" aria-label={t('chart.summary', { title, total: formatMoney(total), count: points.length })} style={{ height: CHART_HEIGHT }}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <Chart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis tickFormatter={thousands} tick={{ fontSize: 12 }} width={48} />
            <Tooltip formatter={money} />
            <Legend />
            {series.map((s) =>
              type === 'bar' ? (
                <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.colour} isAnimationActive={false} />
              ) : (
                <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.colour} strokeWidth={2} dot={false} isAnimationActive={false} type="monotone" />
              ),
            )}
          </Chart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
