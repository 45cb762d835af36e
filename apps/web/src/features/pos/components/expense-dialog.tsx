import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  EXPENSE_CATEGORIES,
  EXPENSE_PAYMENT_METHODS,
  TRANSPORT_TYPES,
  canSubmitExpense,
  emptyExpenseForm,
  expenseFormSchema,
  isTransportCategory,
  transportTotalCents,
  type CreateExpense,
  type Expense,
  type ExpenseFormValues,
} from '@pharmapoint/domain/expenses';
import { parseMoneyToCents } from '@pharmapoint/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { applyServerErrors } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { api } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useMe } from '@/features/auth/api/get-me';
import { newUuid } from '@/lib/idempotency';

export interface RecordExpenseDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The till's branch: the expense is recorded for it. */
  branchId: string;
}

/** POST /api/expenses with an Idempotency-Key made when the dialog opened (a retry records one expense). */
export function recordExpense(body: CreateExpense, idempotencyKey: string): Promise<Expense> {
  return api.post<Expense>('/api/expenses', body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** The form field of a request path (transport.destination → destination, amountCents → amount). */
function formField(path: string): keyof ExpenseFormValues | null {
  const map: Record<string, keyof ExpenseFormValues> = {
    description: 'description',
    category: 'category',
    amountCents: 'amount',
    paymentMethod: 'paymentMethod',
    receiptNumber: 'receiptNumber',
    notes: 'notes',
    contactPhone: 'contactPhone',
    'transport.destination': 'destination',
    'transport.reason': 'reason',
    'transport.transportType': 'transportType',
    'transport.distanceKm': 'distance',
    'transport.fuelCents': 'fuel',
    'transport.tollCents': 'tolls',
    'transport.parkingCents': 'parking',
    'transport.mealAllowanceCents': 'mealAllowance',
  };
  return map[path] ?? null;
}

const cents = (text: string | undefined) => (text?.trim() ? (parseMoneyToCents(text) ?? 0) : 0);

/**
 * Record Expense (seed 001 sections 3-5 and 9): resets each time it opens; description, one of the 29 categories,
 * an amount above 0, the payment method (Cash by default), receipt number and notes; for a transport or travel
 * category the transport section (destination and reason required, type, distance, the four costs, the total and
 * a Kenyan contact phone). Saved approved, source POS, stamped by the server with the cashier and the branch.
 */
export function RecordExpenseDialog({ open, onOpenChange, branchId }: RecordExpenseDialogProps) {
  const { t } = useTranslation('posClients');
  const queryClient = useQueryClient();
  const me = useMe();
  const branchName = me.data?.allowedBranches.find((b) => b.id === branchId)?.name ?? me.data?.branch?.name ?? t('expense.thisBranch');
  const { register, handleSubmit, reset, setError, control, formState } = useForm<ExpenseFormValues, unknown, CreateExpense>({
    resolver: zodResolver(expenseFormSchema),
    defaultValues: emptyExpenseForm(),
  });
  const errors = formState.errors;
  const [key, setKey] = useState(newUuid);
  const [serverError, setServerError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    reset(emptyExpenseForm());
    setKey(newUuid());
    setServerError(null);
  }, [open, reset]);

  const values = useWatch({ control });
  const transport = isTransportCategory(values.category);
  const total = transportTotalCents(cents(values.amount), {
    fuelCents: cents(values.fuel),
    tollCents: cents(values.tolls),
    parkingCents: cents(values.parking),
    mealAllowanceCents: cents(values.mealAllowance),
  });
  const ready = canSubmitExpense({ description: values.description, category: values.category, amount: values.amount });

  const save = useMutation({
    mutationFn: (body: CreateExpense) => recordExpense({ ...body, branchId }, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['expenses'] }),
  });
  const pending = save.isPending;

  async function onValid(body: CreateExpense) {
    setServerError(null);
    try {
      await save.mutateAsync(body);
      toast.success(t('expense.saved'));
      onOpenChange(false);
    } catch (error) {
      const message = applyServerErrors(error, setError, formField);
      const text = t('expense.failed', { message });
      setServerError(text);
      toast.error(text);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={t('expense.title')}
      description={t('expense.descriptionText', { branch: branchName })}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="pos-expense-form" loading={pending} disabled={!ready} aria-describedby={ready ? undefined : 'pos-expense-disabled-hint'}>
            {t('expense.save')}
          </Button>
        </>
      }
    >
      <form id="pos-expense-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        <Field label={t('expense.description')} required error={errors.description?.message}>
          <Input {...register('description')} maxLength={200} autoComplete="off" />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('expense.category')} required error={errors.category?.message}>
            <Select
              {...register('category')}
              placeholder={t('expense.categoryPlaceholder')}
              options={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`, { defaultValue: c }) }))}
            />
          </Field>
          <Field label={t('expense.amount')} required error={errors.amount?.message}>
            <Input {...register('amount')} inputMode="decimal" autoComplete="off" placeholder="0.00" />
          </Field>
          <Field label={t('expense.paymentMethod')} error={errors.paymentMethod?.message}>
            <Select {...register('paymentMethod')} options={EXPENSE_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`paymentMethods.${m}`, { defaultValue: m }) }))} />
          </Field>
          <Field label={t('expense.receiptNumber')} error={errors.receiptNumber?.message}>
            <Input {...register('receiptNumber')} maxLength={60} autoComplete="off" />
          </Field>
        </div>
        {transport ? (
          <fieldset className="space-y-4 rounded-md border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-800">{t('expense.transportTitle')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('expense.destination')} required error={errors.destination?.message}>
                <Input {...register('destination')} maxLength={120} autoComplete="off" />
              </Field>
              <Field label={t('expense.transportType')} error={errors.transportType?.message}>
                <Select
                  {...register('transportType')}
                  placeholder={t('expense.transportTypePlaceholder')}
                  options={TRANSPORT_TYPES.map((type) => ({ value: type, label: t(`transportTypes.${type}`, { defaultValue: type }) }))}
                />
              </Field>
            </div>
            <Field label={t('expense.reason')} required error={errors.reason?.message}>
              <Input {...register('reason')} maxLength={200} autoComplete="off" />
            </Field>
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              <Field label={t('expense.distance')} error={errors.distance?.message}>
                <Input {...register('distance')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expense.fuel')} error={errors.fuel?.message}>
                <Input {...register('fuel')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expense.tolls')} error={errors.tolls?.message}>
                <Input {...register('tolls')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expense.parking')} error={errors.parking?.message}>
                <Input {...register('parking')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expense.mealAllowance')} error={errors.mealAllowance?.message}>
                <Input {...register('mealAllowance')} inputMode="decimal" autoComplete="off" />
              </Field>
            </div>
            <Field label={t('expense.contactPhone')} hint={t('expense.contactPhoneHint')} error={errors.contactPhone?.message}>
              <Input type="tel" inputMode="tel" {...register('contactPhone')} maxLength={20} autoComplete="off" />
            </Field>
            <p className="flex justify-between text-sm font-semibold text-slate-900" aria-live="polite">
              <span>{t('expense.total')}</span>
              <output>{formatMoney(total)}</output>
            </p>
          </fieldset>
        ) : null}
        <Field label={t('expense.notes')} error={errors.notes?.message}>
          <Textarea {...register('notes')} rows={2} maxLength={500} />
        </Field>
        {ready ? null : (
          <p id="pos-expense-disabled-hint" className="text-xs text-slate-500">
            {t('expense.disabledHint')}
          </p>
        )}
        {serverError ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {serverError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
