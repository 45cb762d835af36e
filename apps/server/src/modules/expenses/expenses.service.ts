import { isTransportCategory, transportTotalCents, type CreateExpense, type Expense, type ExpenseListQuery, type ExpenseListResponse } from '@pharmapoint/domain/expenses';
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings, pharmacyTimeZone } from '../settings/settings.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import { findExpense, findRecorder, insertExpense, listExpenses as findExpenses } from './expenses.repository.ts';

/**
 * Expenses (issue 9 item 11, seed 001 sections 3-6, decision 0027). An expense recorded at the till is approved at
 * once (seed 001 section 6), source POS, entry method manual, stamped with the signed-in user (id, name, email), the
 * branch (the one named, else the session's) and the pharmacy's business day. The rules (description, one of the 29
 * categories, amount above 0, destination and reason for transport and travel, the Kenyan phone) are the domain's
 * `createExpenseSchema`, checked before this runs.
 */
export async function recordTillExpense(q: Queryable, ctx: RequestContext, input: CreateExpense): Promise<Expense> {
  const branch = await resolveBranch(q, ctx, input.branchId);
  const today = businessDate(ctx.now, await pharmacyTimeZone(q, ctx.pharmacyId));
  const date = input.date ?? today;
  if (date > today) throw new AppError('EXPENSE_DATE_IN_FUTURE', { details: { issues: [{ path: 'date', message: 'The expense date cannot be in the future.' }] } });
  const recorder = (await findRecorder(q, ctx.userId)) ?? { name: 'Unknown', email: null };
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const transport = isTransportCategory(input.category) && input.transport
    ? {
        destination: input.transport.destination!,
        reason: input.transport.reason!,
        transportType: input.transport.transportType ?? null,
        distanceKm: input.transport.distanceKm ?? null,
        fuelCents: input.transport.fuelCents ?? 0,
        tollCents: input.transport.tollCents ?? 0,
        parkingCents: input.transport.parkingCents ?? 0,
        mealAllowanceCents: input.transport.mealAllowanceCents ?? 0,
      }
    : null;
  const blank = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);
  const id = await insertExpense(
    q,
    ctx.pharmacyId,
    {
      branchId: branch.id,
      date,
      description: input.description,
      category: input.category,
      amountCents: input.amountCents,
      totalCents: transport ? transportTotalCents(input.amountCents, transport) : input.amountCents,
      currency: typeof settings.currency === 'string' && /^[A-Z]{3}$/.test(settings.currency) ? settings.currency : 'KES',
      paymentMethod: input.paymentMethod,
      receiptNumber: blank(input.receiptNumber),
      notes: blank(input.notes),
      contactPhone: transport ? blank(input.contactPhone) : null,
      transport,
      status: 'approved',
      source: 'POS',
      recordedBy: { id: ctx.userId, name: recorder.name, email: recorder.email },
      approvedBy: ctx.userId,
      approvedAt: ctx.now,
    },
    ctx.now,
  );
  const expense = (await findExpense(q, ctx.pharmacyId, id))!;
  await audit(q, ctx, 'expense.create', 'expense', id, null, expense);
  return expense;
}

/** GET /api/expenses: the branches the caller may see, newest first, with the sum of the totals the filters match. */
export async function listExpenses(q: Queryable, ctx: RequestContext, query: ExpenseListQuery): Promise<ExpenseListResponse> {
  if (query.branchId && !canSeeBranch(ctx, query.branchId)) throw new AppError('BRANCH_NOT_ALLOWED');
  const { items, total, totalCents } = await findExpenses(q, ctx.pharmacyId, query, ctx.visibleBranchIds);
  return { items, total, totalCents, limit: query.limit, offset: query.offset };
}
