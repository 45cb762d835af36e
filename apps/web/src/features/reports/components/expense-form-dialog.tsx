import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { useSaveExpense } from '@/features/reports/api/report-pages';
import { useIdempotencyKey } from '@/lib/idempotency';
import { formatMoney } from '@/lib/format';
import { toast } from '@/lib/toast';

const shillings = (cents: number) => (cents ? (cents / 100).toFixed(2) : '');

/** The form's values of a saved expense (editing). */
function formOf(e: Expense): ExpenseFormValues {
  return {
    ...emptyExpenseForm(),
    description: e.description,
    category: e.category,
    amount: (e.amountCents / 100).toFixed(2),
    paymentMethod: (EXPENSE_PAYMENT_METHODS as readonly string[]).includes(e.paymentMethod) ? (e.paymentMethod as ExpenseFormValues['paymentMethod']) : 'Cash',
    receiptNumber: e.receiptNumber ?? '',
    notes: e.notes ?? '',
    contactPhone: e.contactPhone ?? '',
    destination: e.transport?.destination ?? '',
    reason: e.transport?.reason ?? '',
    transportType: (e.transport?.transportType as ExpenseFormValues['transportType'] | null) ?? '',
    distance: e.transport?.distanceKm != null ? String(e.transport.distanceKm) : '',
    fuel: shillings(e.transport?.fuelCents ?? 0),
    tolls: shillings(e.transport?.tollCents ?? 0),
    parking: shillings(e.transport?.parkingCents ?? 0),
    mealAllowance: shillings(e.transport?.mealAllowanceCents ?? 0),
  };
}

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

export interface ExpenseFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Null: a new expense (source back office). */
  expense: Expense | null;
  branches: readonly { id: string; name: string }[];
  defaultBranchId: string;
  today: string;
}

/**
 * Record or edit an expense in the back office: the till's fields and rules (the domain's expenseFormSchema) plus
 * the branch and the date (today by default, never later). A new expense sends the form's Idempotency-Key.
 */
export function ExpenseFormDialog({ open, onOpenChange, expense, branches, defaultBranchId, today }: ExpenseFormDialogProps) {
  const { t } = useTranslation('reportPages');
  const { register, handleSubmit, reset, setError, control, formState } = useForm<ExpenseFormValues, unknown, CreateExpense>({
    resolver: zodResolver(expenseFormSchema),
    defaultValues: emptyExpenseForm(),
  });
  const errors = formState.errors;
  const [branchId, setBranchId] = useState(defaultBranchId);
  const [date, setDate] = useState(today);
  const [serverError, setServerError] = useState<string | null>(null);
  const keys = useIdempotencyKey();
  const save = useSaveExpense();

  useEffect(() => {
    if (!open) return;
    reset(expense ? formOf(expense) : emptyExpenseForm());
    setBranchId(expense?.branchId ?? defaultBranchId);
    setDate(expense?.date ?? today);
    setServerError(null);
  }, [open, expense, reset, defaultBranchId, today]);

  const values = useWatch({ control });
  const transport = isTransportCategory(values.category);
  const total = transportTotalCents(cents(values.amount), {
    fuelCents: cents(values.fuel),
    tollCents: cents(values.tolls),
    parkingCents: cents(values.parking),
    mealAllowanceCents: cents(values.mealAllowance),
  });
  const ready = canSubmitExpense({ description: values.description, category: values.category, amount: values.amount });
  const pending = save.isPending;

  async function onValid(body: CreateExpense) {
    setServerError(null);
    const input: CreateExpense = { ...body, ...(branchId ? { branchId } : {}), ...(date ? { date } : {}) };
    try {
      await save.mutateAsync({ id: expense?.id ?? null, input, key: keys.keyFor(input) });
      keys.renew();
      toast.success(expense ? t('expenses.form.updated') : t('expenses.form.saved'));
      onOpenChange(false);
    } catch (error) {
      const message = applyServerErrors(error, setError, formField);
      const text = t('expenses.form.failed', { message });
      setServerError(text);
      toast.error(text);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={expense ? t('expenses.form.editTitle') : t('expenses.form.recordTitle')}
      description={expense ? t('expenses.form.editDescription') : t('expenses.form.recordDescription')}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="report-expense-form" loading={pending} disabled={!ready} aria-describedby={ready ? undefined : 'report-expense-hint'}>
            {t('expenses.form.save')}
          </Button>
        </>
      }
    >
      <form id="report-expense-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        <Field label={t('expenses.form.description')} required error={errors.description?.message}>
          <Input {...register('description')} maxLength={200} autoComplete="off" />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('expenses.form.branch')}>
            <Select value={branchId} onChange={(e) => setBranchId(e.target.value)} options={branches.map((b) => ({ value: b.id, label: b.name }))} />
          </Field>
          <Field label={t('expenses.form.date')}>
            <Input type="date" value={date} max={today} onChange={(e) => setDate(e.target.value)} />
          </Field>
          <Field label={t('expenses.form.category')} required error={errors.category?.message}>
            <Select {...register('category')} placeholder={t('expenses.form.categoryPlaceholder')} options={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: c }))} />
          </Field>
          <Field label={t('expenses.form.amount')} required error={errors.amount?.message}>
            <Input {...register('amount')} inputMode="decimal" autoComplete="off" placeholder="0.00" />
          </Field>
          <Field label={t('expenses.form.paymentMethod')} error={errors.paymentMethod?.message}>
            <Select {...register('paymentMethod')} options={EXPENSE_PAYMENT_METHODS.map((m) => ({ value: m, label: m }))} />
          </Field>
          <Field label={t('expenses.form.receiptNumber')} error={errors.receiptNumber?.message}>
            <Input {...register('receiptNumber')} maxLength={60} autoComplete="off" />
          </Field>
        </div>
        {transport ? (
          <fieldset className="space-y-4 rounded-md border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-800">{t('expenses.form.transportTitle')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('expenses.form.destination')} required error={errors.destination?.message}>
                <Input {...register('destination')} maxLength={120} autoComplete="off" />
              </Field>
              <Field label={t('expenses.form.transportType')} error={errors.transportType?.message}>
                <Select {...register('transportType')} placeholder={t('expenses.form.transportTypePlaceholder')} options={TRANSPORT_TYPES.map((type) => ({ value: type, label: type }))} />
              </Field>
            </div>
            <Field label={t('expenses.form.reason')} required error={errors.reason?.message}>
              <Input {...register('reason')} maxLength={200} autoComplete="off" />
            </Field>
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              <Field label={t('expenses.form.distance')} error={errors.distance?.message}>
                <Input {...register('distance')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expenses.form.fuel')} error={errors.fuel?.message}>
                <Input {...register('fuel')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expenses.form.tolls')} error={errors.tolls?.message}>
                <Input {...register('tolls')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expenses.form.parking')} error={errors.parking?.message}>
                <Input {...register('parking')} inputMode="decimal" autoComplete="off" />
              </Field>
              <Field label={t('expenses.form.mealAllowance')} error={errors.mealAllowance?.message}>
                <Input {...register('mealAllowance')} inputMode="decimal" autoComplete="off" />
              </Field>
            </div>
            <Field label={t('expenses.form.contactPhone')} error={errors.contactPhone?.message}>
              <Input type="tel" inputMode="tel" {...register('contactPhone')} maxLength={20} autoComplete="off" />
            </Field>
            <p className="flex justify-between text-sm font-semibold text-slate-900" aria-live="polite">
              <span>{t('expenses.form.total')}</span>
              <output>{formatMoney(total)}</output>
            </p>
          </fieldset>
        ) : null}
        <Field label={t('expenses.form.notes')} error={errors.notes?.message}>
          <Textarea {...register('notes')} rows={2} maxLength={500} />
        </Field>
        {ready ? null : (
          <p id="report-expense-hint" className="text-xs text-slate-500">
            {t('expenses.form.disabledHint')}
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
