import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { expenseReportQuerySchema, expenseReportResponseSchema, voidExpenseSchema } from '@pharmapoint/domain/expense-report';
import { createExpenseSchema, expenseListQuerySchema, expenseListResponseSchema, expenseSchema } from '@pharmapoint/domain/expenses';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { editExpense, expenseReport, listExpenses, recordManualExpense, recordTillExpense, voidExpense } from './expenses.service.ts';

const tags = ['expenses'];
const params = z.strictObject({ id: z.uuid('Not found') });
/** Expenses kept in the back office: those who keep the expense report (decision 0095). */
const KEEP_EXPENSES = { permission: 'report:financial' } as const;

/**
 * Expenses: recorded at the till (POST, pos:access: the catalogue has no expense permission, decision 0027) and read
 * by the back office's expense report (GET, report:financial, like reports/expenses in seed 000 section 5).
 * Contracts in packages/domain/src/expenses.ts.
 */
export const registerExpenses: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/expenses',
    {
      config: { access: { permission: 'pos:access' }, idempotent: true },
      schema: { tags, summary: 'Record an expense at the till (approved; send an Idempotency-Key)', body: createExpenseSchema, response: { 201: expenseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => recordTillExpense(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/expenses',
    {
      config: { access: { permission: 'report:financial' } },
      schema: { tags, summary: 'Expenses, newest first, by date range, branch, category and source', querystring: expenseListQuerySchema, response: { 200: expenseListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listExpenses(q, ctx, request.query)),
  );
  r.post(
    '/api/expenses/manual',
    {
      config: { access: KEEP_EXPENSES, idempotent: true },
      schema: { tags, summary: 'Record an expense in the back office (source manual, approved; send an Idempotency-Key)', body: createExpenseSchema, response: { 201: expenseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => recordManualExpense(q, ctx, request.body), { status: 201 }),
  );
  r.put(
    '/api/expenses/:id',
    {
      config: { access: KEEP_EXPENSES },
      schema: { tags, summary: 'Edit an expense (not a voided one)', params, body: createExpenseSchema, response: { 200: expenseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => editExpense(q, ctx, request.params.id, request.body)),
  );
  r.post(
    '/api/expenses/:id/void',
    {
      config: { access: KEEP_EXPENSES, idempotent: true },
      schema: { tags, summary: 'Void an expense: it stays listed and leaves every total (send an Idempotency-Key)', params, body: voidExpenseSchema, response: { 200: expenseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => voidExpense(q, ctx, request.params.id, request.body)),
  );
  r.get(
    '/api/reports/expenses',
    {
      config: { access: { permission: 'report:financial' } },
      schema: {
        tags,
        summary: 'The expense report: totals by category, branch, payment method, source and period, the transport breakdown, and a page of expenses',
        querystring: expenseReportQuerySchema,
        response: { 200: expenseReportResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => expenseReport(q, ctx, request.query)),
  );
};
