import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createSupplierPaymentSchema,
  paymentDueResponseSchema,
  supplierPaymentDeletedSchema,
  supplierPaymentIdParamsSchema,
  supplierPaymentListQuerySchema,
  supplierPaymentListResponseSchema,
  supplierPaymentSavedSchema,
  supplierOpenInvoicesParamsSchema,
  supplierOpenInvoicesResponseSchema,
  supplierPaymentSchema,
  supplierReportQuerySchema,
  supplierReportResponseSchema,
  supplierReportSettingsSchema,
  updateSupplierPaymentSchema,
} from '@pharmapoint/domain/supplier-payments';
import type { ModuleRegistrar } from '../../platform/module.ts';
import {
  deletePayment,
  getPayment,
  getSupplierReportSettings,
  paymentDue,
  listPayments,
  putSupplierReportSettings,
  recordPayment,
  supplierOpenInvoices,
  supplierReport,
  updatePayment,
} from './supplier-payments.service.ts';

const tags = ['supplier-payments'];
const PAY = { anyOf: ['supplier:update', 'supplier:manage', 'contact:update'] } as const;
const READ = { anyOf: ['supplier:read', 'contact:read', 'report:financial', 'supplier:update', 'supplier:manage', 'contact:update'] } as const;
const REPORT = { permission: 'report:financial' } as const;

/** Supplier payments and the supplier balances report. Contracts in packages/domain/src/supplier-payments.ts. */
export const registerSupplierPayments: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/supplier-payments',
    {
      config: { access: PAY, idempotent: true },
      schema: { tags, summary: 'Record a supplier payment, allocated oldest invoice first (or to a chosen invoice first)', body: createSupplierPaymentSchema, response: { 201: supplierPaymentSavedSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => recordPayment(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/supplier-payments',
    { config: { access: READ }, schema: { tags, summary: 'Supplier payments, newest first (of one supplier when named)', querystring: supplierPaymentListQuerySchema, response: { 200: supplierPaymentListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listPayments(q, ctx, request.query)),
  );
  r.get(
    '/api/supplier-payments/:id',
    { config: { access: READ }, schema: { tags, summary: 'One supplier payment with its allocation details', params: supplierPaymentIdParamsSchema, response: { 200: supplierPaymentSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getPayment(q, ctx, request.params.id)),
  );
  r.put(
    '/api/supplier-payments/:id',
    {
      config: { access: PAY },
      schema: { tags, summary: 'Change a supplier payment (allocated again)', params: supplierPaymentIdParamsSchema, body: updateSupplierPaymentSchema, response: { 200: supplierPaymentSavedSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => updatePayment(q, ctx, request.params.id, request.body)),
  );
  r.delete(
    '/api/supplier-payments/:id',
    { config: { access: PAY }, schema: { tags, summary: 'Delete a supplier payment (its invoices owe again)', params: supplierPaymentIdParamsSchema, response: { 200: supplierPaymentDeletedSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => deletePayment(q, ctx, request.params.id)),
  );
  r.get(
    '/api/reports/suppliers',
    {
      config: { access: REPORT },
      schema: { tags, summary: 'Supplier balances: status, days outstanding, aging and outstanding invoices per supplier', querystring: supplierReportQuerySchema, response: { 200: supplierReportResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => supplierReport(q, ctx, request.query)),
  );
  r.get(
    '/api/reports/suppliers/:supplierId/invoices',
    {
      config: { access: REPORT },
      schema: {
        tags,
        summary: "A report row's open invoices, oldest first, with due dates and days overdue (loaded when the row is opened)",
        params: supplierOpenInvoicesParamsSchema,
        response: { 200: supplierOpenInvoicesResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => supplierOpenInvoices(q, ctx, request.params.supplierId)),
  );
  r.get(
    '/api/reports/suppliers/payment-due',
    { config: { access: REPORT }, schema: { tags, summary: 'Open supplier invoices due within 7 days or overdue (the dashboard alert)', response: { 200: paymentDueResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => paymentDue(q, ctx)),
  );
  r.get(
    '/api/reports/suppliers/settings',
    { config: { access: REPORT }, schema: { tags, summary: "The supplier report's settings of the signed-in user", response: { 200: supplierReportSettingsSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSupplierReportSettings(q, ctx)),
  );
  r.put(
    '/api/reports/suppliers/settings',
    { config: { access: REPORT }, schema: { tags, summary: "Save the supplier report's settings for the signed-in user", body: supplierReportSettingsSchema, response: { 200: supplierReportSettingsSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => putSupplierReportSettings(q, ctx, request.body)),
  );
};
