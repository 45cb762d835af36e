import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import '@/features/admin/admin-catalogue';

/** The month a screen shows (YYYY-MM), up to this one. */
export function MonthField({ value, onChange, max }: { value: string; onChange: (month: string) => void; max: string }) {
  const { t } = useTranslation('admin');
  return (
    <Field label={t('analytics.month')} className="w-48">
      <Input type="month" value={value} max={max} onChange={(event) => event.target.value && onChange(event.target.value)} />
    </Field>
  );
}
