import { useMemo, useState } from 'react';
import { Controller, get, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SETTINGS_SECTIONS, type Settings } from '@pharmapoint/domain/settings';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs } from '@/components/ui/tabs';
import { PermissionRequired } from '@/app/guards';
import { formErrorText } from '@/components/ui/form';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSaveSettings, useSettings } from '@/features/settings/api/settings';
import { SettingsFieldInput } from '@/features/settings/components/settings-field';
import { ThemeForm } from '@/features/settings/components/theme-form';
import { nestValues, sectionOf, settingsResolver, toFormValues, type FormValue, type NestedFormValues } from '@/features/settings/components/settings-values';

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
  return <SettingsEditor key={query.dataUpdatedAt} settings={query.data.settings} updatedAt={query.data.updatedAt} secretsSet={query.data.secretsSet} />;
}

const TAB_IDS = new Set<string>([...SETTINGS_SECTIONS.map((section) => section.id), 'theme']);

/** The open tab lives in the address (?tab=pricing): a save reloads the document but keeps the user on their tab. */
function useSettingsTab(): [string, (tab: string) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') ?? '';
  const tab = TAB_IDS.has(asked) ? asked : (SETTINGS_SECTIONS[0]?.id ?? 'business');
  const setTab = (next: string) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
  return [tab, setTab];
}

function SettingsEditor({ settings, updatedAt, secretsSet }: { settings: Settings; updatedAt: string | null; secretsSet: Record<string, boolean> }) {
  const { t } = useTranslation('settings');
  const { can, isAdmin } = usePermissions();
  const canEditTheme = isAdmin || can('settings:system');
  const save = useSaveSettings();
  const defaultValues = useMemo(() => nestValues(toFormValues(settings)), [settings]);
  const resolver = useMemo(() => settingsResolver(settings), [settings]);
  const { control, handleSubmit, formState } = useForm<NestedFormValues, unknown, Settings>({ resolver, defaultValues });
  const errors = formState.errors;
  const errorOf = (key: string): string | undefined => (get(errors, key) as { message?: string } | undefined)?.message;
  const [serverError, setServerError] = useState<string | null>(null);
  const [tab, setTab] = useSettingsTab();
  const invalidCount = SETTINGS_SECTIONS.flatMap((section) => section.fields).filter((field) => errorOf(field.key)).length;

  async function onValid(document: Settings) {
    setServerError(null);
    try {
      await save.mutateAsync(document);
      toast.success(t('saved'));
    } catch (error) {
      setServerError(formErrorText(error) || errorMessage(error));
      toast.error(t('saveFailed'));
    }
  }

  function onInvalid(found: typeof errors) {
    // Open the first tab with a field to fix.
    const first = SETTINGS_SECTIONS.flatMap((section) => section.fields.map((field) => field.key)).find((key) => get(found, key));
    const section = first ? sectionOf(first) : undefined;
    if (section && section !== tab && !SETTINGS_SECTIONS.find((s) => s.id === tab)?.fields.some((field) => get(found, field.key))) setTab(section);
  }

  const sectionTabs = SETTINGS_SECTIONS.map((section) => {
    const errorCount = section.fields.filter((field) => errorOf(field.key)).length;
    return {
      id: section.id,
      label: errorCount > 0 ? `${t(`sections.${section.id}`)} (${errorCount})` : t(`sections.${section.id}`),
      content: (
        <Card title={t(`sections.${section.id}`)} headingLevel={2}>
          <div className="grid gap-4 md:grid-cols-2">
            {section.fields.map((field) => {
              const managed = BRANCH_MANAGED.has(field.key);
              return (
                <Controller
                  key={field.key}
                  control={control}
                  name={field.key}
                  render={({ field: control }) => (
                    <SettingsFieldInput
                      field={field}
                      value={control.value as FormValue | undefined}
                      onChange={control.onChange}
                      error={errorOf(field.key)}
                      disabled={managed}
                      options={field.key === 'defaultBranch' ? settings.branches : undefined}
                      hint={managed ? t('branchesHint') : field.kind === 'secret' ? t(secretsSet[field.key] ? 'secretSet' : 'secretNotSet') : undefined}
                    />
                  )}
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
      {/* Not a <form>: the theme tab holds a form of its own and forms do not nest. The tab strip wraps rather than hiding tabs off the edge. */}
      <div>
        <Tabs items={[...sectionTabs, themeTab]} value={tab} onValueChange={setTab} label={t('tabsLabel')} className="[&>[role=tablist]]:flex-wrap" />
        {onThemeTab ? null : (
          <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
            {invalidCount > 0 ? (
              <p role="alert" className="mr-auto text-sm font-medium text-red-600">
                {t('invalid')}
              </p>
            ) : formState.isDirty ? (
              <p className="mr-auto text-sm text-slate-600">{t('unsaved')}</p>
            ) : null}
            {serverError ? (
              <p role="alert" className="mr-auto text-sm font-medium text-red-600">
                {serverError}
              </p>
            ) : null}
            <Button onClick={() => void handleSubmit(onValid, onInvalid)()} loading={save.isPending}>
              {t('saveSettings')}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
