import {
  DDA_REGISTER_MAX_LINES,
  dayAfter,
  ddaLineKind,
  foldDdaRegister,
  type DdaDispensing,
  type DdaRegister,
  type DdaRegisterQuery,
  type DdaRegisterResponse,
} from '@pharmapoint/domain/dda-register';
import { together, type Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { RequestContext } from '../../platform/context.ts';
import { pharmacyTimeZone } from '../settings/settings.service.ts';
import * as repo from './dda-register.repository.ts';
import { resolveBranch } from './stock.service.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

function dispensingOf(r: repo.DdaLineRow): DdaDispensing | null {
  if (!r.sale_invoice) return null;
  const rx = r.prescription ?? {};
  const address = [text(r.client_location), text(r.client_address)].filter((part, i, all) => part !== null && all.indexOf(part) === i);
  const prescriptionDate = text(rx.prescriptionDate);
  return {
    invoiceNumber: r.sale_invoice,
    patientName: r.client_name ?? '',
    patientPhone: r.client_phone,
    patientAddress: address.length > 0 ? address.join(', ') : null,
    patientId: text(rx.patientId),
    prescriber: text(rx.doctorName),
    prescriberLicence: text(rx.doctorLicense),
    hospital: text(rx.hospitalName),
    prescriptionNumber: text(rx.prescriptionNumber),
    prescriptionDate: prescriptionDate && /^\d{4}-\d{2}-\d{2}$/.test(prescriptionDate) ? prescriptionDate : null,
  };
}

/**
 * GET /api/reports/dda: one page of registers (a controlled product in a branch) for the range, each line's balances
 * folded from the opening balance through the ledger's lines. Totals and closing balances, per drug and per batch,
 * are the ledger's sums over every line of the range, so a register longer than DDA_REGISTER_MAX_LINES (which lists
 * its first lines only) still closes on the stock.
 */
export async function ddaRegister(q: Queryable, ctx: RequestContext, query: DdaRegisterQuery): Promise<DdaRegisterResponse> {
  const branchIds = query.branchId ? [(await resolveBranch(q, ctx, query.branchId)).id] : ctx.visibleBranchIds;
  if (query.productId && !(await repo.productExists(q, ctx.pharmacyId, query.productId))) throw new AppError('NOT_FOUND', { details: { productId: query.productId } });
  const timeZone = await pharmacyTimeZone(q, ctx.pharmacyId);
  const scope: repo.DdaScope = { pharmacyId: ctx.pharmacyId, branchIds, productId: query.productId ?? null, from: query.from, until: dayAfter(query.to), timeZone };
  const [pharmacyName, rows] = await together(
    repo.findPharmacyName(q, ctx.pharmacyId),
    repo.findDdaRegisters(q, scope, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
  );
  const keys = rows.map((r) => ({ branchId: r.branch_id, productId: r.product_id }));
  const [batchRows, lineRows] = await together(repo.findDdaBatches(q, scope, keys), repo.findDdaLines(q, scope, keys, DDA_REGISTER_MAX_LINES));

  const registers: DdaRegister[] = rows.map((r) => {
    const own = (x: { branch_id: string; product_id: string }) => x.branch_id === r.branch_id && x.product_id === r.product_id;
    const batches = batchRows.filter(own);
    const lines = lineRows.filter(own);
    const fold = foldDdaRegister(
      r.opening,
      lines.map((l) => ({ row: l, batchId: l.batch_id, delta: l.delta })),
      new Map(batches.map((b) => [b.batch_id, b.opening])),
    );
    const truncated = r.lines > lines.length;
    return {
      branchId: r.branch_id,
      branchName: r.branch_name,
      productId: r.product_id,
      productName: r.product_name,
      sku: r.sku,
      unit: r.unit,
      openingBalance: r.opening,
      // Every line's sums, also when only the first lines are listed.
      totalReceived: r.received,
      totalIssued: r.issued,
      closingBalance: r.opening + r.received - r.issued,
      lineCount: r.lines,
      truncated,
      lines: fold.lines.map(({ row: l, received, issued, balance, batchBalance }) => ({
        movementId: l.id,
        sequence: l.sequence,
        at: l.at,
        date: l.business_date,
        kind: ddaLineKind(l.kind, l.delta),
        movementKind: l.kind,
        batchId: l.batch_id,
        batchNumber: l.batch_number,
        expiryDate: l.expiry_date,
        reason: l.reason,
        supplierName: l.supplier_name,
        invoiceNumber: l.sale_invoice ?? l.supplier_invoice,
        dispensing: dispensingOf(l),
        returnNumber: l.return_number,
        otherBranchName: l.other_branch_name,
        received,
        issued,
        balance,
        batchBalance,
        enteredBy: l.user_name,
      })),
      batches: batches.map((b) => ({
        batchId: b.batch_id,
        batchNumber: b.batch_number,
        expiryDate: b.expiry_date,
        openingBalance: b.opening,
        totalReceived: b.received,
        totalIssued: b.issued,
        closingBalance: b.opening + b.received - b.issued,
      })),
    };
  });
  return { pharmacyName, from: query.from, to: query.to, branchId: query.branchId ?? null, registers, total: rows[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
}
