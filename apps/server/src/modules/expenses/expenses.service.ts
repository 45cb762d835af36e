import {
  decideExpenseVoid,
  EXPENSE_VOIDED_MESSAGE,
  decideExpenseWrite,
  defaultExpensePeriod,
  expenseBreakdown,
  type ExpenseReportQuery,
  type ExpenseReportResponse,
  type VoidExpenseInput,
} from '@pharmapoint/domain/expense-report';
import { isTransportCategory, transportTotalCents, type CreateExpense, type Expense, type ExpenseListQuery, type ExpenseListResponse } from '@pharmapoint/domain/expenses';
import { resolveReportRange } from '@pharmapoint/domain/report-period';
import type { Queryable } from '../../db/database.ts';
import { canSeeBranch, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings, pharmacyToday } from '../settings/settings.service.ts';
import { resolveBranch } from '../stock/stock.service.ts';
import {
  findExpense,
  findExpenseGroups,
  findRecorder,
  findReportExpenses,
  insertExpense,
  listExpenses as findExpenses,
  lockExpense,
  markExpenseVoided,
  updateExpense,
} from './expenses.repository.ts';

/**
 * Expenses (issue 9 item 11, seed 001 sections 3-6, decision 0027). An expense recorded at the till is approved at
 * once (seed 001 section 6), source POS, entry method manual, stamped with the signed-in user (id, name, email), the
 * branch (the one named, else the session's) and the pharmacy's business day. The rules (description, one of the 29
 * categories, amount above 0, destination and reason for transport and travel, the Kenyan phone) are the domain's
 * `createExpenseSchema`, checked before this runs.
 */
export async function recordTillExpense(q: Queryable, ctx: RequestContext, input: CreateExpense): Promise<Expense> {
  const branch = await resolveBranch(q, ctx, input.branchId);
  const today = await pharmacyToday(q, ctx);
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

// ------------------------------------------------------------------------------------------- kept by hand

function refuse(code: 'EXPENSE_VOIDED' | 'EXPENSE_DATE_IN_FUTURE'): never {
  if (code === 'EXPENSE_DATE_IN_FUTURE') throw new AppError(code, { details: { issues: [{ path: 'date', message: 'The expense date cannot be in the future.' }] } });
  // A voided expense is a conflict with what is stored; the sentence says which.
  throw new AppError('CONFLICT', { message: EXPENSE_VOIDED_MESSAGE, details: { reason: code } });
}

/**
 * POST /api/expenses/manual: an expense recorded in the back office (source manual), approved by the one who records
 * it (the report's keepers hold the right), for the branch named (else the session's) and the date given (else
 * today; never later). Audited.
 */
export async function recordManualExpense(q: Queryable, ctx: RequestContext, input: CreateExpense): Promise<Expense> {
  const branch = await resolveBranch(q, ctx, input.branchId);
  const decision = decideExpenseWrite(null, input, branch.id, await pharmacyToday(q, ctx));
  if (!decision.ok) refuse(decision.code);
  const recorder = (await findRecorder(q, ctx.userId)) ?? { name: 'Unknown', email: null };
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  const id = await insertExpense(
    q,
    ctx.pharmacyId,
    {
      ...decision.value,
      currency: typeof settings.currency === 'string' && /^[A-Z]{3}$/.test(settings.currency) ? settings.currency : 'KES',
      status: 'approved',
      source: 'manual',
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

/** The expense locked for a change: 404 when it is not the pharmacy's or its branch is not one the user may see. */
async function loadForChange(q: Queryable, ctx: RequestContext, id: string): Promise<Expense> {
  const current = await lockExpense(q, ctx.pharmacyId, id);
  if (!current || !canSeeBranch(ctx, current.branchId)) throw new AppError('NOT_FOUND');
  return current;
}

/**
 * PUT /api/expenses/:id: every field as the form sends it (the till's and the back office's alike); the source,
 * status and who recorded it stay. A voided expense is not edited (409). Audited with before and after.
 */
export async function editExpense(q: Queryable, ctx: RequestContext, id: string, input: CreateExpense): Promise<Expense> {
  const current = await loadForChange(q, ctx, id);
  const branch = await resolveBranch(q, ctx, input.branchId ?? current.branchId);
  const decision = decideExpenseWrite(current, input, branch.id, await pharmacyToday(q, ctx));
  if (!decision.ok) refuse(decision.code);
  await updateExpense(q, ctx.pharmacyId, id, decision.value, ctx.userId, ctx.now);
  const expense = (await findExpense(q, ctx.pharmacyId, id))!;
  await audit(q, ctx, 'expense.update', 'expense', id, current, expense);
  return expense;
}

/** POST /api/expenses/:id/void: marked voided with who, when and why; it stays listed and leaves every total. Once only (409). Audited. */
export async function voidExpense(q: Queryable, ctx: RequestContext, id: string, input: VoidExpenseInput): Promise<Expense> {
  const current = await loadForChange(q, ctx, id);
  const decision = decideExpenseVoid(current, input);
  if (!decision.ok) refuse(decision.code);
  const by = (await findRecorder(q, ctx.userId)) ?? { name: 'Unknown', email: null };
  await markExpenseVoided(q, ctx.pharmacyId, id, { id: ctx.userId, name: by.name }, decision.value.reason, ctx.now);
  const expense = (await findExpense(q, ctx.pharmacyId, id))!;
  await audit(q, ctx, 'expense.void', 'expense', id, current, expense);
  return expense;
}

// ------------------------------------------------------------------------------------------- the report

/**
 * GET /api/reports/expenses: the range (the last 30 days by default, in the pharmacy's business dates), the totals
 * and breakdowns of every expense the filters match (voided ones apart), and one page of them, newest first. A
 * branch of another pharmacy is 404, one the user may not see 403.
 */
export async function expenseReport(q: Queryable, ctx: RequestContext, query: ExpenseReportQuery): Promise<ExpenseReportResponse> {
  const today = await pharmacyToday(q, ctx);
  const { from, to } = resolveReportRange(query, today);
  const branchIds = query.branchId ? [(await resolveBranch(q, ctx, query.branchId)).id] : ctx.visibleBranchIds;
  const filter = { from, to, branchIds, category: query.category?.trim() || null, paymentMethod: query.paymentMethod ?? null, source: query.source ?? null };
  const period = query.period ?? defaultExpensePeriod(from, to);
  const summary = expenseBreakdown(await findExpenseGroups(q, ctx.pharmacyId, filter), period);
  const { items, total } = await findReportExpenses(q, ctx.pharmacyId, { ...filter, status: query.status }, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
  return { today, from, to, period, summary, items, total, page: query.page, pageSize: query.pageSize };
}
