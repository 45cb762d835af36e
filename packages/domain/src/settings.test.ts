import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isTimeZone, SETTINGS_NOT_ON_SCREEN, SETTINGS_SECTIONS, sanitizeSettings, settingsSaveSchema, settingsSchema } from './settings.ts';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every dotted leaf path of a settings document. */
function leafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' && !Array.isArray(child)
      ? leafPaths(child as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe('settings document (seed 000 section 3, "Settings")', () => {
  it('has every field the specification lists, in every group', () => {
    const keys = Object.keys(settingsSchema.shape);
    const specified = [
      // Business
      'pharmacyName', 'pharmacyPhone', 'pharmacyAddress', 'pharmacyTagline', 'pharmacyEmail', 'pharmacyWebsite',
      'vatNumber', 'returnPolicy', 'receiptFooter',
      // Invoicing
      'invoicePrefix', 'invoiceFooter', 'invoiceNotes', 'receiptFormat',
      // Tax and money
      'taxRate', 'defaultTaxRate', 'currency', 'currencySymbol', 'dateFormat', 'numberFormat', 'timezone',
      'thousandsSeparator', 'decimalSeparator', 'decimalPlaces',
      // Stock
      'defaultUnitType', 'defaultLowStockThreshold', 'defaultReorderLevel', 'trackExpiryByDefault', 'defaultTags',
      'categories', 'stockValuationMethod', 'expiryAlertDays', 'lowStockAlertEnabled', 'autoReorderEnabled',
      // Pricing
      'defaultMinMargin', 'maxDiscount', 'enforceMargins', 'allowSuspendWithLowMargin', 'showMarginWarnings',
      'marginTolerance', 'allowOverrideMargins', 'warnOnLowMargins',
      // Branches
      'branches', 'defaultBranch', 'enableBranchSpecificPricing', 'allowProductBranchRestriction', 'enableBranchSeparation',
      // Payment
      'paymentMethods',
      // Switches
      'enableQuickSale', 'enableHoldSales', 'enableDiscounts', 'enableTax', 'autoSaveEnabled', 'printReceiptByDefault',
      'displaySettings', 'integrations',
    ];
    expect(keys.sort()).toEqual(specified.sort());
  });

  it('has the display toggles: header name, user, greeting and tagline, view, theme, compact, quick actions, language', () => {
    expect(Object.keys(DEFAULT_SETTINGS.displaySettings).sort()).toEqual(
      [
        'showPharmacyName', 'showUserName', 'showGreeting', 'showTagline', 'dashboardDefaultView', 'preferredTheme',
        'compactMode', 'showQuickActions', 'defaultLanguage',
      ].sort(),
    );
  });

  it('has integrations for mobile money (enabled, shortcode, keys), insurance (enabled, providers), accounting (enabled, software)', () => {
    expect(DEFAULT_SETTINGS.integrations).toEqual({
      mobileMoney: { enabled: false, shortcode: '', consumerKey: '', consumerSecret: '', passkey: '' },
      kopokopo: { enabled: false, environment: 'sandbox', tillNumber: '', clientId: '', clientSecret: '', apiKey: '' },
      insurance: { enabled: false, providers: [] },
      accounting: { enabled: false, software: '' },
    });
  });

  it('validates its own defaults', () => {
    expect(settingsSchema.safeParse(DEFAULT_SETTINGS).success).toBe(true);
  });

  it('refuses an unknown field on save', () => {
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, colour: 'red' }).success).toBe(false);
  });

  it('refuses a tax rate above 100 percent', () => {
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, taxRate: 101 }).success).toBe(false);
  });

  it('refuses a minimum margin of 100 percent, which no price can reach', () => {
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, defaultMinMargin: 100 }).success).toBe(false);
  });

  it('refuses an overlong pharmacy name', () => {
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, pharmacyName: 'x'.repeat(121) }).success).toBe(false);
  });
});

describe('settings defaults (seed 000 section 9)', () => {
  it('uses KSh / KES, tax 16 percent and invoice prefix INV', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ currencySymbol: 'KSh', currency: 'KES', taxRate: 16, defaultTaxRate: 16, invoicePrefix: 'INV' });
  });

  it('uses low stock 5, reorder level 2, expiry alert 30 days, unit Pieces and FIFO', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      defaultLowStockThreshold: 5, defaultReorderLevel: 2, expiryAlertDays: 30, defaultUnitType: 'Pieces', stockValuationMethod: 'FIFO',
    });
  });

  it('uses minimum margin 22 percent, max discount 10 percent, margin tolerance 5', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ defaultMinMargin: 22, maxDiscount: 10, marginTolerance: 5 });
  });

  it("uses 2 decimal places, ',' thousands and '.' decimals, en-GB dates, en-KE numbers, Africa/Nairobi", () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      decimalPlaces: 2, thousandsSeparator: ',', decimalSeparator: '.', dateFormat: 'en-GB', numberFormat: 'en-KE', timezone: 'Africa/Nairobi',
    });
  });

  it("uses 'Main Branch' as the one default branch", () => {
    expect(DEFAULT_SETTINGS.branches).toEqual(['Main Branch']);
    expect(DEFAULT_SETTINGS.defaultBranch).toBe('Main Branch');
  });

  it('offers Cash, M-Pesa, Insurance, Bank Transfer, Credit Card', () => {
    expect(DEFAULT_SETTINGS.paymentMethods).toEqual(['Cash', 'M-Pesa', 'Insurance', 'Bank Transfer', 'Credit Card']);
  });

  it('offers the categories Medicine, Equipment, Supplies, Cosmetics, Supplements', () => {
    expect(DEFAULT_SETTINGS.categories).toEqual(['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements']);
  });

  it('displays theme light, dashboard view today, language en', () => {
    expect(DEFAULT_SETTINGS.displaySettings).toMatchObject({ preferredTheme: 'light', dashboardDefaultView: 'today', defaultLanguage: 'en' });
  });
});

describe('sanitising settings (seed 000 section 5)', () => {
  it('keeps a valid document as it is', () => {
    const valid = { ...clone(DEFAULT_SETTINGS), pharmacyName: 'Afya Chemist', taxRate: 8 };
    expect(sanitizeSettings(valid)).toEqual(valid);
  });

  it('reverts corrupt settings (keys all numeric) to defaults', () => {
    expect(sanitizeSettings({ 0: 'K', 1: 'S', 2: 'h' })).toEqual(DEFAULT_SETTINGS);
  });

  it('reverts something that is not a document to defaults', () => {
    expect(sanitizeSettings('settings')).toEqual(DEFAULT_SETTINGS);
    expect(sanitizeSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(sanitizeSettings([1, 2])).toEqual(DEFAULT_SETTINGS);
  });

  it('fills missing fields with their defaults', () => {
    const settings = sanitizeSettings({ pharmacyName: 'Afya Chemist' });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, pharmacyName: 'Afya Chemist' });
  });

  it('turns a single string in a list field into a one-item list', () => {
    const settings = sanitizeSettings({ paymentMethods: 'Cash', categories: 'Medicine', defaultTags: 'otc' });
    expect(settings.paymentMethods).toEqual(['Cash']);
    expect(settings.categories).toEqual(['Medicine']);
    expect(settings.defaultTags).toEqual(['otc']);
  });

  it('falls back to the default list when a list field is neither a list nor a string', () => {
    expect(sanitizeSettings({ paymentMethods: 42 }).paymentMethods).toEqual(DEFAULT_SETTINGS.paymentMethods);
  });

  it('drops blank and non-text items from lists', () => {
    expect(sanitizeSettings({ categories: ['Medicine', '', 7, '  Supplies '] }).categories).toEqual(['Medicine', 'Supplies']);
  });

  it('falls back to defaults for numeric fields that are not numeric', () => {
    const settings = sanitizeSettings({ taxRate: 'sixteen', defaultMinMargin: null, decimalPlaces: {}, expiryAlertDays: Number.NaN });
    expect(settings.taxRate).toBe(16);
    expect(settings.defaultMinMargin).toBe(22);
    expect(settings.decimalPlaces).toBe(2);
    expect(settings.expiryAlertDays).toBe(30);
  });

  it('reads a number written as text', () => {
    expect(sanitizeSettings({ taxRate: '8' }).taxRate).toBe(8);
  });

  it('falls back to defaults for numbers out of range', () => {
    expect(sanitizeSettings({ maxDiscount: 250, decimalPlaces: 9 })).toMatchObject({ maxDiscount: 10, decimalPlaces: 2 });
  });

  it('defaults the flags lowStockAlert, quickSale, holdSales, discounts and tax to on', () => {
    const settings = sanitizeSettings({
      lowStockAlertEnabled: 'yes', enableQuickSale: undefined, enableHoldSales: null, enableDiscounts: 1,
    });
    expect(settings).toMatchObject({
      lowStockAlertEnabled: true, enableQuickSale: true, enableHoldSales: true, enableDiscounts: true, enableTax: true,
    });
  });

  it('keeps a flag the owner turned off', () => {
    expect(sanitizeSettings({ enableTax: false }).enableTax).toBe(false);
  });

  it('drops unknown keys', () => {
    const settings = sanitizeSettings({ pharmacyName: 'Afya', legacyField: 1, displaySettings: { sparkles: true } });
    expect(settings).not.toHaveProperty('legacyField');
    expect(settings.displaySettings).not.toHaveProperty('sparkles');
    expect(settingsSchema.safeParse(settings).success).toBe(true);
  });

  it('sanitises nested display settings field by field', () => {
    const settings = sanitizeSettings({ displaySettings: { preferredTheme: 'dark', dashboardDefaultView: 'forever' } });
    expect(settings.displaySettings.preferredTheme).toBe('dark');
    expect(settings.displaySettings.dashboardDefaultView).toBe('today');
  });

  it('always answers a document the schema accepts, whatever came in', () => {
    const junk = { taxRate: -3, currency: 'shillings', pharmacyEmail: 'not-an-email', invoicePrefix: 'INV/2026/', branches: [] };
    expect(settingsSchema.safeParse(sanitizeSettings(junk)).success).toBe(true);
  });
});

describe('default branch fallback (seed 000 section 5)', () => {
  it('keeps a stated default branch that is one of the branches', () => {
    expect(sanitizeSettings({ branches: ['Town', 'Estate'], defaultBranch: 'Estate' }).defaultBranch).toBe('Estate');
  });

  it('falls back to branchName', () => {
    const settings = sanitizeSettings({ branches: ['Town', 'Estate'] }, { branchName: 'Town', locationName: 'Estate' });
    expect(settings.defaultBranch).toBe('Town');
  });

  it('then to locationName', () => {
    expect(sanitizeSettings({ branches: ['Town', 'Estate'] }, { locationName: 'Estate' }).defaultBranch).toBe('Estate');
  });

  it('then to the first branch', () => {
    expect(sanitizeSettings({ branches: ['Town', 'Estate'] }).defaultBranch).toBe('Town');
  });

  it("then to 'Main Branch'", () => {
    expect(sanitizeSettings({}).defaultBranch).toBe('Main Branch');
  });

  it('replaces a default branch that is no longer one of the branches', () => {
    expect(sanitizeSettings({ branches: ['Town'], defaultBranch: 'Closed' }).defaultBranch).toBe('Town');
  });

  it('takes the branch list from the context when the document has none', () => {
    expect(sanitizeSettings({}, { branches: ['Town', 'Estate'] }).branches).toEqual(['Town', 'Estate']);
  });
});

describe('settings screen sections', () => {
  it('groups fields as business, invoicing, tax & money, stock, pricing, branches, payment, switches, display, integrations', () => {
    expect(SETTINGS_SECTIONS.map((s) => s.id)).toEqual([
      'business', 'invoicing', 'taxAndMoney', 'stock', 'pricing', 'branches', 'payment', 'switches', 'display', 'integrations',
    ]);
  });

  it('places every field of the document in exactly one section, except those that cannot take effect yet', () => {
    const placed = SETTINGS_SECTIONS.flatMap((s) => s.fields.map((f) => f.key));
    expect([...placed, ...SETTINGS_NOT_ON_SCREEN].sort()).toEqual(leafPaths(DEFAULT_SETTINGS).sort());
    for (const hidden of SETTINGS_NOT_ON_SCREEN) expect(placed).not.toContain(hidden);
  });
});

describe('settings messages, phones and time zones (decision 0033)', () => {
  const issue = (change: Record<string, unknown>) => settingsSaveSchema.safeParse({ ...DEFAULT_SETTINGS, ...change }).error?.issues[0]?.message;

  it('says what is wrong with a field by its label, never in zod words', () => {
    expect(issue({ taxRate: 101 })).toBe('Tax rate must be between 0 and 100 %.');
    expect(issue({ maxDiscount: -1 })).toBe('Maximum discount must be between 0 and 100 %.');
    expect(issue({ defaultMinMargin: 100 })).toBe('Default minimum margin must be 0 % or more and below 100 %.');
    expect(issue({ categories: ['Medicine', ' '] })).toBe('Product categories cannot have an empty line.');
    expect(issue({ currency: 'ksh' })).toBe('Currency code must be three capital letters, such as KES.');
  });

  it('takes Kenyan phones only, on save', () => {
    expect(issue({ pharmacyPhone: '0712 345 678' })).toBeUndefined();
    expect(issue({ pharmacyPhone: '+254712345678' })).toBeUndefined();
    expect(issue({ pharmacyPhone: '0812 345 678' })).toMatch(/^Phone must be a Kenyan number/);
    // A stored document keeps what it had (the load does not drop an older free-form phone).
    expect(sanitizeSettings({ ...DEFAULT_SETTINGS, pharmacyPhone: '020 123 4567' }).pharmacyPhone).toBe('020 123 4567');
  });

  it('knows the IANA time zones', () => {
    expect(isTimeZone('Africa/Nairobi')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Africa/Atlantis')).toBe(false);
    expect(issue({ timezone: 'Nairobi' })).toBe('Time zone must be a name from the list, such as Africa/Nairobi.');
  });
});
