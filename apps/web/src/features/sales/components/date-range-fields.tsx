import { useTranslation } from 'react-i18next';
import { DATE_PRESETS, type DatePreset } from '@pharmapoint/domain/sales-history';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';

export interface DateRangeValue {
  preset: DatePreset;
  from: string;
  to: string;
}

/** The date filter of seed 002 section 4: a preset select, and a start and end date for Custom Range. */
export function DateRangeFields({ value, onChange }: { value: DateRangeValue; onChange: (value: DateRangeValue) => void }) {
  const { t } = useTranslation('sales');
  return (
    <>
      <Field label={t('filters.dateRange')}>
        <Select
          value={value.preset}
          onChange={(event) => onChange({ ...value, preset: event.target.value as DatePreset })}
          options={DATE_PRESETS.map((p) => ({ value: p, label: t(`presets.${p}`) }))}
        />
      </Field>
      {value.preset === 'custom' ? (
        <>
          <Field label={t('filters.startDate')}>
            <Input type="date" value={value.from} max={value.to || undefined} onChange={(event) => onChange({ ...value, from: event.target.value })} />
          </Field>
          <Field label={t('filters.endDate')}>
            <Input type="date" value={value.to} min={value.from || undefined} onChange={(event) => onChange({ ...value, to: event.target.value })} />
          </Field>
        </>
      ) : null}
    </>
  );
}

/** The query's date part: the preset, and from/to only for a custom range. */
export function dateQuery(value: DateRangeValue): { preset: DatePreset; from?: string; to?: string } {
  if (value.preset !== 'custom') return { preset: value.preset };
  return { preset: 'custom', from: value.from || undefined, to: value.to || undefined };
}
