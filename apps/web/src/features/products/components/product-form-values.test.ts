import { describe, expect, it } from 'vitest';
import { productFormSchema, type ProductDetailResponse } from '@pharmapoint/domain/products';
import { createInput, editInput, emptyFormValues, fieldOfIssue, formValuesOf, readForm, rowFigures, type ProductFormValues } from './product-form-values';

const MAIN = '11111111-1111-4111-8111-111111111111';
const WEST = '22222222-2222-4222-8222-222222222222';
const branches = [
  { id: MAIN, name: 'Main Branch' },
  { id: WEST, name: 'Westlands Branch' },
];
/** What the form submits: the domain's schema reads the typed values. */
const parse = (values: ProductFormValues) => readForm(productFormSchema.parse(values));
/** The form's errors by field path, as react-hook-form's zodResolver shows them. */
function errorsOf(values: ProductFormValues): Record<string, string> {
  const result = productFormSchema.safeParse(values);
  const errors: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

function filled(): ProductFormValues {
  const values = emptyFormValues(branches);
  values.name = 'Amoxil 500mg';
  values.branches[0] = { ...values.branches[0]!, sellingPrice: '150', purchasePrice: '100' };
  values.branches[1] = { ...values.branches[1]!, sellingPrice: '140.50', purchasePrice: '1,000' };
  return values;
}

describe('product form values', () => {
  it('computes the minimum selling price, margin and markup of a row (branch, product, then default margin)', () => {
    const values = filled();
    const row = values.branches[0]!;
    expect(rowFigures(row, '', 22)).toMatchObject({ minimumSellingPriceCents: 12821, marginPercent: 33.33, markupPercent: 50, marginBasisPoints: 2200 });
    expect(rowFigures(row, '25', 22)?.minimumSellingPriceCents).toBe(13334);
    expect(rowFigures({ ...row, minMargin: '50' }, '25', 22)?.minimumSellingPriceCents).toBe(20000);
    expect(rowFigures({ ...row, sellingPrice: 'abc' }, '', 22)).toBeNull();
    expect(rowFigures({ ...row, sellingPrice: '' }, '', 22)?.marginPercent).toBeNull();
  });

  it('reports every unreadable field with a sentence by its label', () => {
    const values = filled();
    values.name = ' ';
    values.packageSize = '0';
    values.minMargin = '100';
    values.taxRate = '101';
    values.branches[0]!.sellingPrice = '-5';
    values.branches[1]!.minMargin = '0';
    expect(errorsOf(values)).toEqual({
      name: 'Product name is required.',
      packageSize: 'Package size must be between 1 and 100,000,000.',
      minMargin: 'Minimum margin must be above 0 and below 100 %.',
      taxRate: 'Tax rate must be between 0 and 100 %.',
      'branches.0.sellingPrice': 'Selling price must be an amount in KSh of 0 or more with at most 2 decimals.',
      'branches.1.minMargin': 'Minimum margin must be above 0 and below 100 %.',
    });
  });

  it('refuses a product offered nowhere, and a name longer than 120 characters', () => {
    const values = filled();
    values.branches = values.branches.map((b) => ({ ...b, offered: false }));
    expect(errorsOf(values)).toEqual({ offered: 'Offer the product in at least one branch.' });
    expect(errorsOf({ ...filled(), name: 'x'.repeat(121) })).toEqual({ name: 'Product name must be at most 120 characters.' });
  });

  it('builds the create body in cents and basis points, restricted to the offered branches', () => {
    const values = filled();
    values.minMargin = '25';
    values.taxApplied = true;
    values.barcodes = '600123, 600124\n600123';
    values.branches[1]!.offered = false;
    const parsed = parse(values);
    const body = createInput(parsed, ' New product ', true);
    expect(body).toMatchObject({
      name: 'Amoxil 500mg',
      barcodes: ['600123', '600124'],
      minMarginBasisPoints: 2500,
      taxRateBasisPoints: 1600,
      restrictedBranchIds: [MAIN],
      sellingPriceCents: 15000,
      purchasePriceCents: 10000,
      priceChangeReason: 'New product',
    });
    expect(body.branches).toEqual([
      { branchId: MAIN, sellingPriceCents: 15000, purchasePriceCents: 10000, minMarginBasisPoints: null, isAvailable: true, lowStockThreshold: null, reason: 'New product' },
    ]);
    // Without product:manage_price no price field is sent.
    const plain = createInput(parsed, '', false);
    expect(plain.sellingPriceCents).toBeUndefined();
    expect(plain.minMarginBasisPoints).toBeUndefined();
    expect(plain.branches?.[0]).not.toHaveProperty('sellingPriceCents');
  });

  it('sends only what changed on edit, with the reason on the price changes', () => {
    const detail: ProductDetailResponse = {
      product: {
        id: '33333333-3333-4333-8333-333333333333',
        name: 'Amoxil 500mg',
        sku: null,
        barcodes: [],
        category: null,
        packageSize: 1,
        packageType: 'pieces',
        unit: 'piece',
        isDda: false,
        taxApplied: false,
        taxRateBasisPoints: 1600,
        minMarginBasisPoints: null,
        lowStockThreshold: 5,
        reorderLevel: 2,
        isActive: true,
        restrictedBranchIds: [],
        createdAt: '2026-11-23T10:00:00Z',
        updatedAt: '2026-11-23T10:00:00Z',
        lastPriceUpdateAt: null,
        lastPriceUpdateReason: null,
        lastPriceUpdateBy: null,
      },
      branches: [MAIN, WEST].map((branchId) => ({
        branchId,
        branchName: branchId === MAIN ? 'Main Branch' : 'Westlands Branch',
        sellingPriceCents: 15000,
        purchasePriceCents: 10000,
        minMarginBasisPoints: null,
        effectiveMinMarginBasisPoints: 2200,
        minimumSellingPriceCents: 12821,
        marginPercent: 33.33,
        markupPercent: 50,
        isAvailable: true,
        quantity: 0,
        reservedQuantity: 0,
        expiredQuantity: 0,
        lowStockThreshold: null,
        status: 'out' as const,
        nearestExpiry: null,
        lastStockUpdateAt: null,
        lastStockUpdateReason: null,
      })),
      batches: [],
      priceChanges: [],
    };
    const values = formValuesOf(detail, branches);
    expect(values.branches[0]!.sellingPrice).toBe('150.00');
    expect(editInput(parse(values), detail, '', true)).toEqual({ product: {}, branches: [] });

    values.name = 'Amoxil 500mg Capsules';
    values.branches[1]!.sellingPrice = '165.50';
    values.branches[0]!.isAvailable = false;
    const edit = editInput(parse(values), detail, 'Supplier increase', true);
    expect(edit.product).toEqual({ name: 'Amoxil 500mg Capsules' });
    expect(edit.branches).toEqual([
      { branchId: MAIN, values: { isAvailable: false } },
      { branchId: WEST, values: { sellingPriceCents: 16550, reason: 'Supplier increase' } },
    ]);
  });

  it('places server issues beside their controls', () => {
    expect(fieldOfIssue('name', [0])).toBe('name');
    // The request listed only the offered rows: its branches[1] is the form's row 2.
    expect(fieldOfIssue('branches.1.sellingPriceCents', [0, 2])).toBe('branches.2.sellingPrice');
    expect(fieldOfIssue('purchasePriceCents', [1, 2])).toBe('branches.1.purchasePrice');
    expect(fieldOfIssue('minMarginBasisPoints', [0])).toBe('minMargin');
    expect(fieldOfIssue('', [0])).toBeNull();
  });
});
