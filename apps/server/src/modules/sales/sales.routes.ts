import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  completeSaleSchema,
  lastPrescriptionQuerySchema,
  lastPrescriptionResponseSchema,
  saleIdParamsSchema, saleSchema } from '@pharmapoint/domain/sales';
import { createSaleReturnSchema, saleReturnListResponseSchema, saleReturnSchema, voidSaleSchema } from '@pharmapoint/domain/sale-returns';
import {
  creditOutstandingQuerySchema,
  creditOutstandingResponseSchema,
  customerPaymentInputSchema,
  customerPaymentListQuerySchema,
  customerPaymentListResponseSchema,
  customerPaymentSchema,
  paymentSummaryQuerySchema,
  paymentSummaryResponseSchema,
  saleFilterOptionsQuerySchema,
  saleFilterOptionsResponseSchema,
  saleHistoryQuerySchema,
  saleHistoryResponseSchema,
} from '@pharmapoint/domain/sales-history';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { listCustomerPayments, recordCustomerPayment } from './customer-payments.service.ts';
import { createSaleReturn, listSaleReturns, voidSale } from './sale-returns.service.ts';
import { getCreditOutstanding, getPaymentSummary, getSaleFilterOptions, listSalesHistory } from './sales-history.service.ts';
import { completeSale, getSale, lastPrescription } from './sales.service.ts';

const tags = ['sales'];
/** The till reads back its own receipts with pos:access; the back office with sales:read. */
const SALE_READ = { anyOf: ['sales:read', 'pos:access'] } as const;
/** Returns and refunds: pos:refund or sales:refund (issue 10 item 8). */
const SALE_REFUND = { anyOf: ['pos:refund', 'sales:refund'] } as const;
/** A customer's later payment of credit sales: whoever may take money for sales (decision 0039). */
const TAKE_PAYMENT = { anyOf: ['sales:create', 'pos:access'] } as const;

/**
 * Sales: completing a sale at the till (one transaction, idempotent by the sale's UUID sent as Idempotency-Key), the
 * receipt, and the list. Contracts in packages/domain/src/sales.ts.
 */
export const registerSales: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/sales',
    {
      config: { access: { permission: 'pos:access' }, idempotent: true },
      schema: { tags, summary: 'Complete a sale (send its id as Idempotency-Key)', body: completeSaleSchema, response: { 201: saleSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => completeSale(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/sales',
    {
      config: { access: { permission: 'sales:read' } },
      schema: { tags, summary: 'Sales, newest first, filtered, with the totals of the filtered set', querystring: saleHistoryQuerySchema, response: { 200: saleHistoryResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listSalesHistory(q, ctx, request.query)),
  );
  r.get(
    '/api/sales/filter-options',
    {
      config: { access: { permission: 'sales:read' } },
      schema: { tags, summary: 'The cashiers and clients of the sales in a range (the list filters\' choices)', querystring: saleFilterOptionsQuerySchema, response: { 200: saleFilterOptionsResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSaleFilterOptions(q, ctx, request.query)),
  );
  r.get(
    '/api/sales/payment-summary',
    {
      config: { access: { permission: 'sales:read' } },
      schema: { tags, summary: 'Totals per payment method and day', querystring: paymentSummaryQuerySchema, response: { 200: paymentSummaryResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getPaymentSummary(q, ctx, request.query)),
  );
  r.get(
    '/api/sales/credit-outstanding',
    {
      config: { access: { permission: 'sales:read' } },
      schema: { tags, summary: 'Credit sales still owed, per customer, with aging', querystring: creditOutstandingQuerySchema, response: { 200: creditOutstandingResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getCreditOutstanding(q, ctx, request.query)),
  );
  r.get(
    '/api/sales/:id/returns',
    { config: { access: SALE_READ }, schema: { tags, summary: "A sale's returns and void", params: saleIdParamsSchema, response: { 200: saleReturnListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listSaleReturns(q, ctx, request.params.id)),
  );
  r.post(
    '/api/sales/:id/returns',
    {
      config: { access: SALE_REFUND, idempotent: true },
      schema: { tags, summary: 'Return some or all lines of a sale, with the refund', params: saleIdParamsSchema, body: createSaleReturnSchema, response: { 201: saleReturnSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createSaleReturn(q, ctx, request.params.id, request.body), { status: 201 }),
  );
  r.post(
    '/api/sales/:id/void',
    {
      config: { access: { permission: 'sales:void' }, idempotent: true },
      schema: { tags, summary: 'Void a sale of today: everything reversed', params: saleIdParamsSchema, body: voidSaleSchema, response: { 201: saleReturnSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => voidSale(q, ctx, request.params.id, request.body), { status: 201 }),
  );
  r.get(
    '/api/customer-payments',
    {
      config: { access: { permission: 'sales:read' } },
      schema: { tags, summary: "Customers' later payments of credit sales, newest first", querystring: customerPaymentListQuerySchema, response: { 200: customerPaymentListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listCustomerPayments(q, ctx, request.query)),
  );
  r.post(
    '/api/customer-payments',
    {
      config: { access: TAKE_PAYMENT, idempotent: true },
      schema: { tags, summary: "Record a customer's payment of credit sales (allocated oldest first)", body: customerPaymentInputSchema, response: { 201: customerPaymentSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => recordCustomerPayment(q, ctx, request.body), { status: 201 }),
  );
  r.get(
    '/api/sales/last-prescription',
    {
      config: { access: SALE_READ },
      schema: { tags, summary: "A client's latest DDA prescription (prefills the DDA modal)", querystring: lastPrescriptionQuerySchema, response: { 200: lastPrescriptionResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => lastPrescription(q, ctx, request.query.clientId)),
  );
  r.get(
    '/api/sales/:id',
    { config: { access: SALE_READ }, schema: { tags, summary: 'One sale (the receipt)', params: saleIdParamsSchema, response: { 200: saleSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSale(q, ctx, request.params.id)),
  );
};
