import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createExpenseSchema, expenseListQuerySchema, expenseListResponseSchema, expenseSchema } from '@pharmapoint/domain/expenses';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { listExpenses, recordTillExpense } from './expenses.service.ts';

const tags = ['expenses'];

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
};
