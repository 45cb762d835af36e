import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadingState } from '@/components/ui/loading-state';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useSaveTheme, useTheme, type Theme } from '@/features/settings/api/settings';

const COLOUR_KEYS = ['primaryColor', 'secondaryColor', 'accentColor', 'backgroundColor', 'headerColor'] as const;
const REQUIRED_COLOURS = new Set<string>(['primaryColor', 'secondaryColor']);
const TEXT_KEYS = ['appTitle', 'titleFormat', 'location', 'ownerPhone'] as const;
const TEXTAREA_KEYS = ['receiptHeader', 'receiptFooter'] as const;
const HEX = /^#[0-9a-fA-F]{6}$/;
/** The server accepts inline logos of about 200 KB. */
export const MAX_LOGO_BYTES = 200 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

type ThemeValues = Record<(typeof COLOUR_KEYS)[number] | (typeof TEXT_KEYS)[number] | (typeof TEXTAREA_KEYS)[number] | 'logoUrl', string>;

function toValues(theme: Theme): ThemeValues {
  return {
    primaryColor: theme.primaryColor,
    secondaryColor: theme.secondaryColor,
    accentColor: theme.accentColor ?? '',
    backgroundColor: theme.backgroundColor ?? '',
    headerColor: theme.headerColor ?? '',
    logoUrl: theme.logoUrl ?? '',
    appTitle: theme.appTitle ?? '',
    titleFormat: theme.titleFormat ?? '',
    receiptHeader: theme.receiptHeader ?? '',
    receiptFooter: theme.receiptFooter ?? '',
    location: theme.location ?? '',
    ownerPhone: theme.ownerPhone ?? '',
  };
}

/** The theme document: empty optional values are left out (the server treats absent as "use the default"). */
function toTheme(values: ThemeValues): Theme {
  const theme: Theme = { primaryColor: values.primaryColor.trim(), secondaryColor: values.secondaryColor.trim() };
  for (const key of ['accentColor', 'backgroundColor', 'headerColor', ...TEXT_KEYS, ...TEXTAREA_KEYS] as const) {
    const value = values[key].trim();
    if (value !== '') theme[key] = key === 'receiptHeader' || key === 'receiptFooter' ? values[key] : value;
  }
  theme.logoUrl = values.logoUrl.trim() === '' ? null : values.logoUrl.trim();
  return theme;
}

/** The theme and receipt branding of the pharmacy (PUT /api/pharmacy/theme), applied to the app on save. */
export function ThemeForm() {
  const query = useTheme(true);
  const { t } = useTranslation('settings');
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState message={t('theme.loadFailed')} onRetry={() => void query.refetch()} />;
  return <ThemeEditor key={query.dataUpdatedAt} initial={toValues(query.data.theme)} />;
}

function ThemeEditor({ initial }: { initial: ThemeValues }) {
  const { t } = useTranslation('settings');
  const save = useSaveTheme();
  const [values, setValues] = useState<ThemeValues>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof ThemeValues, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const set = (key: keyof ThemeValues, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  function validate(): boolean {
    const next: Partial<Record<keyof ThemeValues, string>> = {};
    for (const key of COLOUR_KEYS) {
      const value = values[key].trim();
      if ((REQUIRED_COLOURS.has(key) || value !== '') && !HEX.test(value)) next[key] = t('theme.invalidHex');
    }
    const logo = values.logoUrl.trim();
    if (logo !== '' && !logo.startsWith('data:image/') && !/^https:\/\/\S+$/.test(logo)) next.logoUrl = t('theme.logoInvalidUrl');
    setErrors(next);
    return Object.keys(next).length === 0;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    if (!validate()) return;
    try {
      await save.mutateAsync(toTheme(values));
      toast.success(t('theme.saved'));
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(t('theme.saveFailed'));
    }
  }

  function onLogoFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) return setErrors((current) => ({ ...current, logoUrl: t('theme.logoWrongType') }));
    if (file.size > MAX_LOGO_BYTES) return setErrors((current) => ({ ...current, logoUrl: t('theme.logoTooLarge') }));
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') set('logoUrl', reader.result);
    };
    reader.readAsDataURL(file);
  }

  const logoIsInline = values.logoUrl.startsWith('data:');
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-6">
      <Card title={t('theme.colours')} headingLevel={3}>
        <div className="grid gap-4 sm:grid-cols-2">
          {COLOUR_KEYS.map((key) => {
            const label = t(`theme.${key}`);
            const valid = HEX.test(values[key]);
            return (
              <div key={key} className="flex items-end gap-2">
                <input
                  type="color"
                  aria-label={t('theme.colourPicker', { label })}
                  value={valid ? values[key] : '#ffffff'}
                  onChange={(event) => set(key, event.target.value)}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
                />
                <Field label={label} error={errors[key]} required={REQUIRED_COLOURS.has(key)} className="flex-1">
                  <Input value={values[key]} onChange={(event) => set(key, event.target.value)} placeholder="#2563eb" maxLength={7} />
                </Field>
              </div>
            );
          })}
        </div>
      </Card>

      <Card title={t('theme.logo')} headingLevel={3}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('theme.logoUpload')} hint={t('theme.logoUploadHint')}>
            <Input type="file" accept={LOGO_TYPES.join(',')} onChange={onLogoFile} className="py-1.5" />
          </Field>
          <Field label={t('theme.logoUrl')} error={errors.logoUrl}>
            <Input type="url" value={logoIsInline ? '' : values.logoUrl} onChange={(event) => set('logoUrl', event.target.value)} placeholder="https://" />
          </Field>
        </div>
        {values.logoUrl ? (
          <div className="mt-4 flex items-center gap-4">
            <img src={values.logoUrl} alt={t('theme.logoPreview')} className="h-16 max-w-48 rounded border border-slate-200 object-contain p-1" />
            <Button variant="outline" size="sm" onClick={() => set('logoUrl', '')}>
              {t('theme.removeLogo')}
            </Button>
          </div>
        ) : null}
      </Card>

      <Card title={t('sections.theme')} headingLevel={3}>
        <div className="grid gap-4 sm:grid-cols-2">
          {TEXT_KEYS.map((key) => (
            <Field key={key} label={t(`theme.${key}`)} hint={key === 'appTitle' ? t('theme.appTitleHint') : undefined}>
              <Input value={values[key]} onChange={(event) => set(key, event.target.value)} type={key === 'ownerPhone' ? 'tel' : 'text'} />
            </Field>
          ))}
          {TEXTAREA_KEYS.map((key) => (
            <Field key={key} label={t(`theme.${key}`)}>
              <Textarea value={values[key]} onChange={(event) => set(key, event.target.value)} />
            </Field>
          ))}
        </div>
      </Card>

      {serverError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          {serverError}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending}>
          {t('theme.save')}
        </Button>
      </div>
    </form>
  );
}
