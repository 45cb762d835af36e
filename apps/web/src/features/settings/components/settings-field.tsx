import { useTranslation } from 'react-i18next';
import type { SettingsField } from '@pharmapoint/domain/settings';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import type { FormValue } from '@/features/settings/components/settings-values';

/** Separator characters cannot be catalogue keys: each gets a name. */
const SEPARATOR_NAMES: Record<string, string> = { ',': 'comma', '.': 'period', ' ': 'space', "'": 'apostrophe', '': 'none' };

const INPUT_TYPES = { text: 'text', email: 'email', url: 'url', tel: 'tel', secret: 'password', number: 'number', percent: 'number' } as const;

export interface SettingsFieldInputProps {
  field: SettingsField;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  error?: string | undefined;
  disabled?: boolean;
  /** Options of a select whose choices come from the document (the default branch). */
  options?: readonly string[];
  hint?: string;
}

let zoneList: string[] | undefined;
/** The IANA time zones this browser knows, sorted; Africa/Nairobi and UTC at least. */
export function timeZones(): string[] {
  if (!zoneList) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zoneList = [...new Set([...known, 'Africa/Nairobi', 'UTC'])].sort();
  }
  return zoneList;
}

/** One settings field, edited with the control its kind calls for. */
export function SettingsFieldInput({ field, value, onChange, error, disabled, options, hint }: SettingsFieldInputProps) {
  const { t } = useTranslation('settings');
  const label = t(`fields.${field.key}`);

  if (field.kind === 'boolean') {
    return (
      <div>
        <Switch checked={value === true} onCheckedChange={onChange} label={label} disabled={disabled} />
        {error ? (
          <p className="mt-1 text-xs font-medium text-red-600" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  const text = typeof value === 'string' ? value : '';
  if (field.key === 'timezone') {
    // The real IANA list of the browser (Intl.supportedValuesOf), with the stored value kept if the browser lacks it.
    const zones = timeZones();
    const choices = text && !zones.includes(text) ? [text, ...zones] : zones;
    return (
      <Field label={label} error={error} hint={hint}>
        <Select value={text} onChange={(event) => onChange(event.target.value)} disabled={disabled} options={choices.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))} />
      </Field>
    );
  }
  if (field.kind === 'select') {
    const choices = options ?? field.options ?? [];
    const optionKey = field.key.split('.').pop() ?? field.key;
    const labelFor = (choice: string) =>
      field.key === 'thousandsSeparator' || field.key === 'decimalSeparator'
        ? t(`options.separator.${SEPARATOR_NAMES[choice] ?? 'none'}`)
        : t(`options.${optionKey}.${choice}`, { defaultValue: choice });
    return (
      <Field label={label} error={error} hint={hint}>
        <Select value={text} onChange={(event) => onChange(event.target.value)} disabled={disabled} options={choices.map((choice) => ({ value: choice, label: labelFor(choice) }))} />
      </Field>
    );
  }
  if (field.kind === 'textarea' || field.kind === 'list') {
    return (
      <Field label={label} error={error} hint={hint ?? (field.kind === 'list' ? t('listHint') : undefined)}>
        <Textarea rows={field.kind === 'list' ? 5 : 3} value={text} onChange={(event) => onChange(event.target.value)} disabled={disabled} readOnly={disabled} />
      </Field>
    );
  }
  return (
    <Field label={label} error={error} hint={hint}>
      <Input
        type={INPUT_TYPES[field.kind]}
        inputMode={field.kind === 'number' || field.kind === 'percent' ? 'decimal' : undefined}
        step={field.kind === 'percent' ? 'any' : field.kind === 'number' ? 1 : undefined}
        autoComplete={field.kind === 'secret' ? 'new-password' : undefined}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      />
    </Field>
  );
}
