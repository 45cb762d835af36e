import { describe, expect, it } from 'vitest';
import {
  EXPENSE_CATEGORIES,
  EXPENSE_PAYMENT_METHODS,
  TRANSPORT_TYPES,
  canSubmitExpense,
  createExpenseSchema,
  emptyExpenseForm,
  expenseFormSchema,
  isTransportCategory,
  transportTotalCents,
} from './expenses.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('expense constants (seed 001 section 9)', () => {
  it('has 29 distinct categories, the 7 payment methods with Cash first and the 7 transport types', () => {
    expect(EXPENSE_CATEGORIES).toHaveLength(29);
    expect(new Set(EXPENSE_CATEGORIES).size).toBe(29);
    expect(EXPENSE_PAYMENT_METHODS).toEqual(['Cash', 'M-Pesa', 'Bank Transfer', 'Cheque', 'Credit Card', 'Debit Card', 'Petty Cash']);
    expect(TRANSPORT_TYPES).toEqual(['Personal Vehicle', 'Company Vehicle', 'Matatu', 'Taxi', 'Uber/Bolt', 'Boda Boda', 'Other']);
  });

  it("knows a transport or travel category by the words in its name, whatever the case", () => {
    expect(EXPENSE_CATEGORIES.filter(isTransportCategory)).toEqual(['Transport - Fuel', 'Transport - Public', 'Transport - Taxi', 'Travel - Accommodation', 'Travel - Meals']);
    expect(isTransportCategory('staff TRAVEL')).toBe(true);
    expect(isTransportCategory('Rent')).toBe(false);
    expect(isTransportCategory(null)).toBe(false);
  });

  it('adds fuel, tolls, parking and meal allowance to the base amount', () => {
    expect(transportTotalCents(120_000, { fuelCents: 30_000, tollCents: 5_050, parkingCents: 10_000, mealAllowanceCents: 25_000 })).toBe(190_050);
    expect(transportTotalCents(500, {})).toBe(500);
  });

  it('enables submit only with description, category and amount', () => {
    expect(canSubmitExpense({ description: 'x', category: 'Rent', amount: '1' })).toBe(true);
    expect(canSubmitExpense({ description: ' ', category: 'Rent', amount: '1' })).toBe(false);
    expect(canSubmitExpense({ description: 'x', category: '', amount: '1' })).toBe(false);
    expect(canSubmitExpense({ description: 'x', category: 'Rent', amount: '' })).toBe(false);
  });
});

describe('POST /api/expenses request', () => {
  const base = { description: 'Printer paper', category: 'Office Supplies', amountCents: 150_000 };

  it('takes a plain expense with Cash by default', () => {
    const parsed = createExpenseSchema.parse(base);
    expect(parsed.paymentMethod).toBe('Cash');
  });

  it("answers the specification's sentences at their fields", () => {
    expect(messages(createExpenseSchema.safeParse({ ...base, description: '  ', category: '', amountCents: 0 }))).toEqual([
      'description: Description is required',
      'category: Category is required',
      'amountCents: Valid amount is required',
    ]);
    expect(messages(createExpenseSchema.safeParse({ ...base, amountCents: -5 }))).toEqual(['amountCents: Valid amount is required']);
    expect(messages(createExpenseSchema.safeParse({ ...base, amountCents: 1.5 }))).toEqual(['amountCents: Valid amount is required']);
    expect(messages(createExpenseSchema.safeParse({ ...base, amountCents: 1e300 }))).toEqual(['amountCents: The amount must be at most KSh 100,000,000.00.']);
    expect(messages(createExpenseSchema.safeParse({ ...base, category: 'Holidays' }))).toEqual(['category: Choose a category from the list.']);
    expect(messages(createExpenseSchema.safeParse({ ...base, contactPhone: '0812345678' }))).toEqual(['contactPhone: Please enter a valid phone number']);
    expect(messages(createExpenseSchema.safeParse({ ...base, paymentMethod: 'Bitcoin' }))).toEqual(['paymentMethod: Choose a payment method.']);
    expect(messages(createExpenseSchema.safeParse({ ...base, date: '2026-02-30' }))).toEqual(['date: The expense date must be a real date (YYYY-MM-DD).']);
    expect(messages(createExpenseSchema.safeParse({ ...base, description: 'a\u0000b' }))).toEqual([
      'description: The text contains a character that cannot be saved. Remove it and try again.',
    ]);
  });

  it('asks destination and reason for a transport or travel category only', () => {
    expect(messages(createExpenseSchema.safeParse({ ...base, category: 'Travel - Meals' }))).toEqual([
      'transport.destination: Destination is required for transport and travel expenses',
      'transport.reason: Reason is required for transport and travel expenses',
    ]);
    expect(createExpenseSchema.safeParse({ ...base, category: 'Travel - Meals', transport: { destination: 'Nakuru', reason: 'Supplier visit', transportType: 'Matatu' } }).success).toBe(true);
    expect(messages(createExpenseSchema.safeParse({ ...base, category: 'Travel - Meals', transport: { destination: 'Nakuru', reason: 'x', transportType: 'Plane' } }))).toEqual([
      'transport.transportType: Choose a transport type.',
    ]);
  });

  it('accepts the Kenyan phone formats: +254 or 0, then 1 or 7, then 8 digits', () => {
    for (const phone of ['+254712345678', '0712 345 678', '0112345678']) expect(createExpenseSchema.safeParse({ ...base, contactPhone: phone }).success).toBe(true);
    for (const phone of ['254712345678', '0812345678', '071234567']) expect(createExpenseSchema.safeParse({ ...base, contactPhone: phone }).success).toBe(false);
  });
});

describe('the Record Expense form', () => {
  it('reads KSh into cents and sends the transport section only for a transport category', () => {
    const out = expenseFormSchema.parse({ ...emptyExpenseForm(), description: 'Stationery', category: 'Office Supplies', amount: '1,250.5', destination: 'ignored' });
    expect(out).toMatchObject({ amountCents: 125_050, transport: null, contactPhone: null, paymentMethod: 'Cash' });
    const travel = expenseFormSchema.parse({
      ...emptyExpenseForm(),
      description: 'Bank run',
      category: 'Transport - Public',
      amount: '200',
      destination: 'CBD',
      reason: 'Deposit',
      fuel: '',
      tolls: '20',
      distance: '3.5',
    });
    expect(travel.transport).toEqual({ destination: 'CBD', reason: 'Deposit', transportType: null, distanceKm: 3.5, fuelCents: 0, tollCents: 2_000, parkingCents: 0, mealAllowanceCents: 0 });
  });

  it('names every problem at once, the amount included', () => {
    expect(messages(expenseFormSchema.safeParse({ ...emptyExpenseForm(), amount: 'abc', category: 'Travel - Accommodation', fuel: 'x', distance: '-1' }))).toEqual([
      'amount: Valid amount is required',
      'distance: Distance must be between 0 and 100,000 km.',
      'fuel: Fuel cost must be an amount in KSh of 0 or more with at most 2 decimals.',
      'description: Description is required',
      'destination: Destination is required for transport and travel expenses',
      'reason: Reason is required for transport and travel expenses',
    ]);
    expect(messages(expenseFormSchema.safeParse({ ...emptyExpenseForm(), description: 'x', category: 'Rent', amount: '0' }))).toEqual(['amount: Valid amount is required']);
  });
});
