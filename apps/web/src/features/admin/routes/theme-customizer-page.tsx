import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Palette, Save } from 'lucide-react';
import { DEFAULT_THEME, themeSchema, type Theme } from '@pharmapoint/domain/tenancy';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingState } from '@/components/ui/loading-state';
import { ErrorState } from '@/components/ui/error-state';
import { api, errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { usePharmacies } from '@/features/admin/api/admin';
import '@/features/admin/admin-catalogue';

const COLORS = ['primaryColor', 'secondaryColor', 'accentColor', 'headerColor', 'backgroundColor'] as const;
type ColorKey = (typeof COLORS)[number];

/** theme-customizer (issue 11 item 8): a pharmacy's colours and title, with a live preview, saved for its people. */
export default function ThemeCustomizerPage() {
  const { t } = useTranslation('admin');
  const pharmacies = usePharmacies();
  const queryClient = useQueryClient();
  const [pharmacyId, setPharmacyId] = useState('');
  const theme = useQuery({
    queryKey: ['admin', 'theme', pharmacyId],
    queryFn: async () => (await api.get<{ theme: Theme }>(`/api/admin/pharmacies/${encodeURIComponent(pharmacyId)}/theme`)).theme,
    enabled: Boolean(pharmacyId),
  });
  const [draft, setDraft] = useState<Theme>(DEFAULT_THEME);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (theme.data) setDraft({ ...DEFAULT_THEME, ...theme.data });
  }, [theme.data]);
  const save = useMutation({
    mutationFn: (body: Theme) => api.put<{ theme: Theme }>(`/api/admin/pharmacies/${encodeURIComponent(pharmacyId)}/theme`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'theme', pharmacyId] }),
  });

  const set = (key: ColorKey | 'appTitle', value: string) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setError(null);
  };

  async function submit() {
    const parsed = themeSchema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t('theme.invalid'));
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success(t('theme.saved'));
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  const color = (key: ColorKey) => draft[key] ?? (key === 'backgroundColor' ? '#f8fafc' : key === 'headerColor' ? draft.primaryColor : draft.secondaryColor);
  return (
    <div className="min-w-0 space-y-4">
      <PageHeader title={t('theme.title')} description={t('theme.description')} />
      <Field label={t('theme.pharmacy')} className="max-w-md">
        <Select
          value={pharmacyId}
          onChange={(event) => setPharmacyId(event.target.value)}
          placeholder={t('theme.choose')}
          options={(pharmacies.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Field>
      {!pharmacyId ? (
        <EmptyState icon={<Palette className="size-8" />} title={t('theme.chooseTitle')} description={t('theme.chooseBody')} />
      ) : theme.isPending ? (
        <LoadingState />
      ) : theme.isError ? (
        <ErrorState message={errorMessage(theme.error)} onRetry={() => void theme.refetch()} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card title={t('theme.colours')} className="p-6">
            <div className="space-y-3">
              {COLORS.map((key) => (
                <Field key={key} label={t(`theme.${key}`)}>
                  <Input type="color" className="h-10 w-24 p-1" value={color(key)} onChange={(event) => set(key, event.target.value)} />
                </Field>
              ))}
              <Field label={t('theme.appTitle')}>
                <Input value={draft.appTitle ?? ''} maxLength={80} onChange={(event) => set('appTitle', event.target.value)} />
              </Field>
              {error ? (
                <p role="alert" className="text-sm text-red-700">
                  {error}
                </p>
              ) : null}
              <Button icon={<Save className="size-4" aria-hidden="true" />} loading={save.isPending} onClick={() => void submit()}>
                {t('theme.save')}
              </Button>
            </div>
          </Card>
          <Card title={t('theme.preview')} className="p-6">
            <div aria-label={t('theme.preview')} role="img" className="overflow-hidden rounded-lg border border-slate-200" style={{ backgroundColor: color('backgroundColor') }}>
              <div className="px-4 py-3 font-semibold text-white" style={{ backgroundColor: color('headerColor') }}>
                {draft.appTitle || pharmacies.data?.find((p) => p.id === pharmacyId)?.name}
              </div>
              <div className="space-y-3 p-4">
                <div className="rounded-md bg-white p-3 text-sm shadow-sm">{t('theme.sample')}</div>
                <div className="flex flex-wrap gap-2">
                  <span className="rounded-md px-3 py-2 text-sm font-medium text-white" style={{ backgroundColor: draft.primaryColor }}>
                    {t('theme.primaryButton')}
                  </span>
                  <span className="rounded-md px-3 py-2 text-sm font-medium text-white" style={{ backgroundColor: draft.secondaryColor }}>
                    {t('theme.secondaryButton')}
                  </span>
                  <span className="rounded-md px-3 py-2 text-sm font-medium text-white" style={{ backgroundColor: color('accentColor') }}>
                    {t('theme.accent')}
                  </span>
                </div>
              </div>
            </div>
          </Card>
        </div>
      )}
    </div>
  );
}
