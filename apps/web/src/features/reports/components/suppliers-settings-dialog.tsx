import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { supplierReportSettingsSchema, type SupplierReportSettings, type SupplierReportSettingsInput } from '@pharmapoint/domain/supplier-payments';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useSaveSupplierReportSettings } from './suppliers-api';

/** Report settings (seed 002 section 3): title, zero balances, default credit days, aging periods; kept per user. */
export function SuppliersSettingsDialog({ open, onOpenChange, settings }: { open: boolean; onOpenChange: (open: boolean) => void; settings: SupplierReportSettings }) {
  return open ? <OpenDialog open={open} onOpenChange={onOpenChange} settings={settings} /> : null;
}

function OpenDialog({ open, onOpenChange, settings }: { open: boolean; onOpenChange: (open: boolean) => void; settings: SupplierReportSettings }) {
  const { t } = useTranslation('contacts');
  const save = useSaveSupplierReportSettings();
  const [showZero, setShowZero] = useState(settings.showZeroBalances);
  const { register, handleSubmit, formState } = useForm<SupplierReportSettingsInput, unknown, SupplierReportSettings>({
    resolver: zodResolver(supplierReportSettingsSchema),
    defaultValues: settings,
  });
  const errors = formState.errors;
  async function onValid(values: SupplierReportSettings) {
    try {
      await save.mutateAsync({ ...values, showZeroBalances: showZero });
      toast.success(t('report.settingsSaved'));
      onOpenChange(false);
    } catch (error) {
      toast.error(`${t('report.settingsFailed')}: ${errorMessage(error)}`);
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('report.settingsTitle')}
      description={t('report.settingsDescription')}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="supplier-report-settings" loading={save.isPending}>
            {t('report.saveSettings')}
          </Button>
        </>
      }
    >
      <form id="supplier-report-settings" noValidate className="space-y-4" onSubmit={(event) => void handleSubmit(onValid)(event)}>
        <Field label={t('report.reportTitle')} error={errors.reportTitle?.message}>
          <Input {...register('reportTitle')} maxLength={100} />
        </Field>
        <Checkbox label={t('report.showZeroBalances')} checked={showZero} onCheckedChange={setShowZero} />
        <Field label={t('report.defaultCreditDays')} error={errors.defaultCreditDays?.message}>
          <Input type="number" min={0} max={365} {...register('defaultCreditDays', { valueAsNumber: true })} />
        </Field>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{t('report.agingPeriods')}</legend>
          <div className="grid grid-cols-3 gap-2">
            {[0, 1, 2].map((i) => (
              <Field key={i} label={t('report.agingPeriod', { n: i + 1 })}>
                <Input type="number" min={1} max={365} {...register(`agingPeriods.${i}` as const, { valueAsNumber: true })} />
              </Field>
            ))}
          </div>
          {errors.agingPeriods ? (
            <p role="alert" className="mt-1 text-sm text-red-700">
              {errors.agingPeriods.message ?? errors.agingPeriods.root?.message}
            </p>
          ) : null}
        </fieldset>
      </form>
    </Dialog>
  );
}
