import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SETTINGS_SECTIONS, type Settings } from '@pharmapoint/domain/settings';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs } from '@/components/ui/tabs';
import { PermissionRequired } from '@/app/guards';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSaveSettings, useSettings } from '@/features/settings/api/settings';
import { SettingsFieldInput } from '@/features/settings/components/settings-field';
import { ThemeForm } from '@/features/settings/components/theme-form';
import { sectionOf, toDocument, toFormValues, validateSettings, type FormValue, type FormValues } from '@/features/settings/components/settings-values';

/** Fields kept by the branches table: shown here, edited on the Branches screen. */
const BRANCH_MANAGED = new Set(['branches', 'defaultBranch']);

export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const query = useSettings();
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return (
      <div>
        <PageHeader title={t('title')} />
        <ErrorState message={`${t('loadFailed')} ${errorMessage(query.error)}`} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return <SettingsEditor key={query.dataUpdatedAt} settings={query.data.settings} updatedAt={query.data.updatedAt} />;
}

function SettingsEditor({ settings, updatedAt }: { settings: Settings; updatedAt: string | null }) {
  const { t } = useTranslation('settings');
  const { can, isAdmin } = usePermissions();
  const canEditTheme = isAdmin || can('settings:system');
  const save = useSaveSettings();
  const initial = useMemo(() => toFormValues(settings), [settings]);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [tab, setTab] = useState<string>(SETTINGS_SECTIONS[0]?.id ?? 'business');
  const dirty = useMemo(() => Object.keys(initial).some((key) => initial[key] !== values[key]), [initial, values]);

  const setValue = (key: string, value: FormValue) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      if (!(key in current)) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  };

  async function onSave() {
    setServerError(null);
    const result = validateSettings(toDocument(settings, values));
    if (!result.ok) {
      setErrors(result.errors);
      const first = Object.keys(result.errors).map(sectionOf).find(Boolean);
      if (first) setTab(first);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(result.settings);
      toast.success(t('saved'));
    } catch (error) {
      setServerError(errorMessage(error));
      toast.error(t('saveFailed'));
    }
  }

  const sectionTabs = SETTINGS_SECTIONS.map((section) => {
    const errorCount = section.fields.filter((field) => errors[field.key]).length;
    return {
      id: section.id,
      label: errorCount > 0 ? `${t(`sections.${section.id}`)} (${errorCount})` : t(`sections.${section.id}`),
      content: (
        <Card title={t(`sections.${section.id}`)} headingLevel={2}>
          <div className="grid gap-4 md:grid-cols-2">
            {section.fields.map((field) => {
              const managed = BRANCH_MANAGED.has(field.key);
              return (
                <SettingsFieldInput
                  key={field.key}
                  field={field}
                  value={values[field.key]}
                  onChange={(value) => setValue(field.key, value)}
                  error={errors[field.key]}
                  disabled={managed}
                  options={field.key === 'defaultBranch' ? settings.branches : undefined}
                  hint={managed ? t('branchesHint') : undefined}
                />
              );
            })}
          </div>
          {section.id === 'branches' ? (
            <Link to="/app/branches" className={buttonClasses('outline', 'sm', 'mt-4')}>
              {t('manageBranches')}
            </Link>
          ) : null}
        </Card>
      ),
    };
  });

  const themeTab = {
    id: 'theme',
    label: t('sections.theme'),
    content: canEditTheme ? <ThemeForm /> : <PermissionRequired>{t('theme.needsSystem')}</PermissionRequired>,
  };
  const onThemeTab = tab === 'theme';

  return (
    <div>
      <PageHeader
        title={t('title')}
        description={updatedAt ? `${t('description')} ${t('lastSaved', { date: formatDateTime(updatedAt) })}` : t('description')}
      />
      {/* Not a <form>: the theme tab holds a form of its own and forms do not nest. */}
      <div>
        <Tabs items={[...sectionTabs, themeTab]} value={tab} onValueChange={setTab} label={t('tabsLabel')} />
        {onThemeTab ? null : (
          <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
            {Object.keys(errors).length > 0 ? (
              <p role="alert" className="mr-auto text-sm font-medium text-red-600">
                {t('invalid')}
              </p>
            ) : dirty ? (
              <p className="mr-auto text-sm text-slate-600">{t('unsaved')}</p>
            ) : null}
            {serverError ? (
              <p role="alert" className="mr-auto text-sm font-medium text-red-600">
                {serverError}
              </p>
            ) : null}
            <Button onClick={() => void onSave()} loading={save.isPending}>
              {t('saveSettings')}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
