import { z } from 'zod';
import { fieldMessage, numberField } from './errors.ts';
import { isKenyanPhone } from './phone.ts';

/**
 * The per-pharmacy settings document of seed 000 section 3 ("Settings"), its defaults (seed 000 section 9)
 * and the sanitiser run on every load and save (seed 000 section 5).
 */

/** The default branch name of seed 000 section 9. */
export const DEFAULT_BRANCH_NAME = 'Main Branch';

/** The dashboard periods a user may open by default (seed 002 section 4, "Date filter values", without custom). */
export const DASHBOARD_VIEWS = [
  'today', 'yesterday', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth', 'last30Days', 'last3Months',
] as const;
export const THEMES = ['light', 'dark', 'system'] as const;
/** 80 mm till receipts are the norm; A4 for invoices sent to insurers. */
export const RECEIPT_FORMATS = ['thermal', 'a4'] as const;
/** Kenya reports under IFRS, which forbids LIFO; FEFO (first expiry, first out) suits medicines. */
export const STOCK_VALUATION_METHODS = ['FIFO', 'FEFO', 'WEIGHTED_AVERAGE'] as const;
export const THOUSANDS_SEPARATORS = [',', '.', ' ', "'", ''] as const;
export const DECIMAL_SEPARATORS = ['.', ','] as const;
export const LANGUAGES = ['en', 'sw'] as const;

// Every message is a sentence about the field by its label (decision 0033).
const text = (max: number, label = 'This field') => z.string().max(max, fieldMessage('atMost', label, { max, unit: ' characters' }));
const itemName = (label: string, max = 100) => z.string().trim().min(1, `${label} cannot have an empty line.`).max(max, `Each line of ${label} must be at most ${max} characters.`);
const list = (item: z.ZodString, max: number, label = 'The list') => z.array(item).max(max, fieldMessage('atMost', label, { max, unit: ' lines' }));
const wholeNumber = (min: number, max: number, label = 'The number', unit = '') => numberField(label, min, max, { whole: true, unit });
const percent = (label: string) => numberField(label, 0, 100, { unit: ' %' });
const localeTag = (label: string) =>
  z.string().max(35, fieldMessage('atMost', label, { max: 35, unit: ' characters' })).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, `${label} must be a locale such as en-GB or en-KE.`);

/** Is this an IANA time zone name the runtime knows (Africa/Nairobi, UTC)? */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const displaySettingsSchema = z.strictObject({
  showPharmacyName: z.boolean(),
  showUserName: z.boolean(),
  showGreeting: z.boolean(),
  showTagline: z.boolean(),
  dashboardDefaultView: z.enum(DASHBOARD_VIEWS),
  preferredTheme: z.enum(THEMES),
  compactMode: z.boolean(),
  showQuickActions: z.boolean(),
  defaultLanguage: z.enum(LANGUAGES),
});

export const integrationsSchema = z.strictObject({
  mobileMoney: z.strictObject({
    enabled: z.boolean(),
    shortcode: z.string().regex(/^\d{0,10}$/, 'The M-Pesa shortcode must be up to 10 digits.'),
    consumerKey: text(200),
    consumerSecret: text(200),
    passkey: text(200),
  }),
  /**
   * The pharmacy's own Kopo Kopo K2 till for M-Pesa at the till (issue 11 item 7, decision 0058): the OAuth client,
   * the API key that signs K2's callbacks (both write-only) and the online payments till number, prefixed K.
   */
  kopokopo: z.strictObject({
    enabled: z.boolean(),
    environment: z.enum(['sandbox', 'production']),
    tillNumber: z.string().trim().regex(/^(K\d{3,12})?$/i, 'The Kopo Kopo till number must be K followed by its digits, such as K123456.'),
    clientId: text(200, 'The Kopo Kopo client ID'),
    clientSecret: text(200),
    apiKey: text(200),
  }),
  insurance: z.strictObject({ enabled: z.boolean(), providers: list(itemName('Insurance providers'), 100, 'Insurance providers') }),
  accounting: z.strictObject({ enabled: z.boolean(), software: text(100, 'Accounting software') }),
});

/** The whole settings document; strict, so a save with an unknown field is refused. */
export const settingsSchema = z.strictObject({
  // Business
  pharmacyName: text(120, 'Pharmacy name'),
  pharmacyPhone: text(30, 'Phone'),
  pharmacyAddress: text(300, 'Address'),
  pharmacyTagline: text(150, 'Tagline'),
  pharmacyEmail: z.union([z.literal(''), z.email().max(254)], { error: 'Email must be an email address such as info@pharmacy.co.ke.' }),
  pharmacyWebsite: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(300)], { error: 'Website must be a web address starting with https://.' }),
  vatNumber: text(40, 'VAT / KRA PIN number'),
  returnPolicy: text(1000, 'Return policy'),
  receiptFooter: text(500, 'Receipt footer'),
  // Invoicing
  invoicePrefix: z.string().regex(/^[A-Za-z0-9-]{0,10}$/, 'Invoice prefix must be up to 10 letters, digits or hyphens.'),
  invoiceFooter: text(500, 'Invoice footer'),
  invoiceNotes: text(1000, 'Invoice notes'),
  receiptFormat: z.enum(RECEIPT_FORMATS, { error: 'Choose a receipt format.' }),
  // Tax and money
  taxRate: percent('Tax rate'),
  defaultTaxRate: percent('Default tax rate'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'Currency code must be three capital letters, such as KES.'),
  currencySymbol: z.string().trim().min(1, fieldMessage('required', 'Currency symbol')).max(8, fieldMessage('atMost', 'Currency symbol', { max: 8, unit: ' characters' })),
  dateFormat: localeTag('Date format'),
  numberFormat: localeTag('Number format'),
  timezone: z.string().max(64).regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/, 'Time zone must be a name from the list, such as Africa/Nairobi.'),
  thousandsSeparator: z.enum(THOUSANDS_SEPARATORS, { error: 'Choose a thousands separator.' }),
  decimalSeparator: z.enum(DECIMAL_SEPARATORS, { error: 'Choose a decimal separator.' }),
  decimalPlaces: wholeNumber(0, 4, 'Decimal places'),
  // Stock
  defaultUnitType: z.string().trim().min(1, fieldMessage('required', 'Default unit type')).max(40, fieldMessage('atMost', 'Default unit type', { max: 40, unit: ' characters' })),
  defaultLowStockThreshold: wholeNumber(0, 1_000_000, 'Default low stock threshold'),
  defaultReorderLevel: wholeNumber(0, 1_000_000, 'Default reorder level'),
  trackExpiryByDefault: z.boolean(),
  defaultTags: list(itemName('Default product tags'), 100, 'Default product tags'),
  categories: list(itemName('Product categories'), 200, 'Product categories'),
  stockValuationMethod: z.enum(STOCK_VALUATION_METHODS, { error: 'Choose a stock valuation method.' }),
  expiryAlertDays: wholeNumber(0, 3650, 'Expiry alert', ' days'),
  lowStockAlertEnabled: z.boolean(),
  autoReorderEnabled: z.boolean(),
  // Pricing: a margin of 100 % or more cannot be reached (minimum price = cost / (1 - margin/100)).
  defaultMinMargin: z
    .number({ error: fieldMessage('number', 'Default minimum margin') })
    .min(0, 'Default minimum margin must be 0 % or more and below 100 %.')
    .lt(100, 'Default minimum margin must be 0 % or more and below 100 %.'),
  maxDiscount: percent('Maximum discount'),
  enforceMargins: z.boolean(),
  allowSuspendWithLowMargin: z.boolean(),
  showMarginWarnings: z.boolean(),
  marginTolerance: percent('Margin tolerance'),
  allowOverrideMargins: z.boolean(),
  warnOnLowMargins: z.boolean(),
  // Branches
  branches: list(itemName('Branches'), 200, 'Branches'),
  defaultBranch: itemName('Default branch'),
  enableBranchSpecificPricing: z.boolean(),
  allowProductBranchRestriction: z.boolean(),
  enableBranchSeparation: z.boolean(),
  // Payment
  paymentMethods: list(itemName('Payment methods', 40), 30, 'Payment methods'),
  // Switches
  enableQuickSale: z.boolean(),
  enableHoldSales: z.boolean(),
  enableDiscounts: z.boolean(),
  enableTax: z.boolean(),
  autoSaveEnabled: z.boolean(),
  printReceiptByDefault: z.boolean(),
  displaySettings: displaySettingsSchema,
  integrations: integrationsSchema,
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * The defaults of seed 000 section 9. Where the specification names a switch without a default we chose the
 * safe one: margins enforced without override, warnings on, branch features off, integrations off.
 */
export const DEFAULT_SETTINGS: Settings = {
  pharmacyName: '',
  pharmacyPhone: '',
  pharmacyAddress: '',
  pharmacyTagline: '',
  pharmacyEmail: '',
  pharmacyWebsite: '',
  vatNumber: '',
  returnPolicy: '',
  receiptFooter: '',
  invoicePrefix: 'INV',
  invoiceFooter: '',
  invoiceNotes: '',
  receiptFormat: 'thermal',
  taxRate: 16,
  defaultTaxRate: 16,
  currency: 'KES',
  currencySymbol: 'KSh',
  dateFormat: 'en-GB',
  numberFormat: 'en-KE',
  timezone: 'Africa/Nairobi',
  thousandsSeparator: ',',
  decimalSeparator: '.',
  decimalPlaces: 2,
  defaultUnitType: 'Pieces',
  defaultLowStockThreshold: 5,
  defaultReorderLevel: 2,
  trackExpiryByDefault: true,
  defaultTags: [],
  categories: ['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements'],
  stockValuationMethod: 'FIFO',
  expiryAlertDays: 30,
  lowStockAlertEnabled: true,
  autoReorderEnabled: false,
  defaultMinMargin: 22,
  maxDiscount: 10,
  enforceMargins: true,
  allowSuspendWithLowMargin: false,
  showMarginWarnings: true,
  marginTolerance: 5,
  allowOverrideMargins: false,
  warnOnLowMargins: true,
  branches: [DEFAULT_BRANCH_NAME],
  defaultBranch: DEFAULT_BRANCH_NAME,
  enableBranchSpecificPricing: false,
  allowProductBranchRestriction: false,
  enableBranchSeparation: false,
  paymentMethods: ['Cash', 'M-Pesa', 'Insurance', 'Bank Transfer', 'Credit Card'],
  enableQuickSale: true,
  enableHoldSales: true,
  enableDiscounts: true,
  enableTax: true,
  autoSaveEnabled: true,
  printReceiptByDefault: true,
  displaySettings: {
    showPharmacyName: true,
    showUserName: true,
    showGreeting: true,
    showTagline: true,
    dashboardDefaultView: 'today',
    preferredTheme: 'light',
    compactMode: false,
    showQuickActions: true,
    defaultLanguage: 'en',
  },
  integrations: {
    mobileMoney: { enabled: false, shortcode: '', consumerKey: '', consumerSecret: '', passkey: '' },
    kopokopo: { enabled: false, environment: 'sandbox', tillNumber: '', clientId: '', clientSecret: '', apiKey: '' },
    insurance: { enabled: false, providers: [] },
    accounting: { enabled: false, software: '' },
  },
};

/** Integration secrets: write-only. The server keeps them and shows nobody their value, only whether each is set. */
export const SECRET_SETTINGS_FIELDS = [
  'integrations.mobileMoney.consumerKey',
  'integrations.mobileMoney.consumerSecret',
  'integrations.mobileMoney.passkey',
  'integrations.kopokopo.clientSecret',
  'integrations.kopokopo.apiKey',
] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list field: a single string becomes a one-item list; non-strings and blanks go; duplicates go. */
function coerceList(value: unknown): unknown {
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!items) return undefined;
  const strings = items.filter((item): item is string => typeof item === 'string').map((item) => item.trim());
  return [...new Set(strings.filter((item) => item !== ''))];
}

/** A numeric field: a number, or text that is a number; anything else falls back to the default. */
function coerceNumber(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A boolean field: a boolean, or the text 'true'/'false' as forms and old documents stored it. */
function coerceBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/**
 * Sanitise one object against its defaults and schema, field by field: a field that is missing or still
 * invalid after coercion takes its default, so one bad field never costs the owner the rest of the document.
 */
function sanitizeObject<T extends Record<string, unknown>>(
  input: Record<string, unknown>,
  defaults: T,
  schema: z.ZodObject,
): T {
  const result: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const raw = input[key];
    const fieldSchema = schema.shape[key];
    if (isRecord(fallback) && fieldSchema instanceof z.ZodObject) {
      result[key] = sanitizeObject(isRecord(raw) ? raw : {}, fallback, fieldSchema);
      continue;
    }
    const coerced = Array.isArray(fallback)
      ? coerceList(raw)
      : typeof fallback === 'number'
        ? coerceNumber(raw)
        : typeof fallback === 'boolean'
          ? coerceBoolean(raw)
          : typeof raw === 'string'
            ? raw
            : undefined;
    const parsed = coerced === undefined || !fieldSchema ? undefined : fieldSchema.safeParse(coerced);
    result[key] = parsed?.success ? parsed.data : Array.isArray(fallback) ? [...(fallback as unknown[])] : fallback;
  }
  return result as T;
}

/** Corrupt settings: an object whose keys are all numeric (a string or list spread into an object). */
function isCorrupt(input: Record<string, unknown>): boolean {
  const keys = Object.keys(input);
  return keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
}

/**
 * Sanitise a settings document on load and save (seed 000 section 5): corrupt documents revert to defaults,
 * list fields become lists, non-numeric numbers and invalid values take their defaults, unknown keys are dropped,
 * and the default branch falls back to branchName, then locationName, then the first branch, then 'Main Branch'.
 */
export function sanitizeSettings(
  input: unknown,
  context: { branchName?: string | undefined; locationName?: string | undefined; branches?: string[] | undefined } = {},
): Settings {
  const source = isRecord(input) && !isCorrupt(input) ? input : {};
  const settings = sanitizeObject(source, DEFAULT_SETTINGS, settingsSchema);
  const knownBranches = (context.branches ?? []).map((b) => b.trim()).filter((b) => b !== '');
  const stated = settingsSchema.shape.branches.safeParse(coerceList(source.branches));
  if (!stated.success || stated.data.length === 0) {
    settings.branches = knownBranches.length > 0 ? knownBranches : [DEFAULT_BRANCH_NAME];
  }
  const statedDefault = typeof source.defaultBranch === 'string' ? source.defaultBranch.trim() : '';
  const candidates = [statedDefault, context.branchName, context.locationName, settings.branches[0], DEFAULT_BRANCH_NAME];
  // A stated default branch must still be one of the branches (a renamed or closed branch is not a default).
  const chosen = candidates.find(
    (candidate, index): candidate is string =>
      typeof candidate === 'string' && candidate.trim() !== '' && (index > 0 || settings.branches.includes(candidate)),
  );
  settings.defaultBranch = (chosen ?? DEFAULT_BRANCH_NAME).trim().slice(0, 100);
  return settings;
}

export type SettingsFieldKind = 'text' | 'textarea' | 'email' | 'url' | 'tel' | 'number' | 'percent' | 'boolean' | 'select' | 'list' | 'secret';

/** One field of the settings screen: its path in the document (dotted for nested fields) and how to edit it. */
export interface SettingsField {
  key: string;
  kind: SettingsFieldKind;
  options?: readonly string[];
}

export type SettingsSectionId =
  | 'business' | 'invoicing' | 'taxAndMoney' | 'stock' | 'pricing' | 'branches' | 'payment' | 'switches' | 'display' | 'integrations';

/** How the settings screen groups the document, in order, so the screen is generated from one description. */
/**
 * Stored display settings that are not on the settings screen until they can take effect (decision 0031): the
 * dashboard has no period filters yet, there is no dark colour scheme, and English is the only catalogue.
 */
export const SETTINGS_NOT_ON_SCREEN = ['displaySettings.dashboardDefaultView', 'displaySettings.preferredTheme', 'displaySettings.defaultLanguage'] as const;

export const SETTINGS_SECTIONS: readonly { id: SettingsSectionId; fields: readonly SettingsField[] }[] = [
  {
    id: 'business',
    fields: [
      { key: 'pharmacyName', kind: 'text' },
      { key: 'pharmacyPhone', kind: 'tel' },
      { key: 'pharmacyAddress', kind: 'textarea' },
      { key: 'pharmacyTagline', kind: 'text' },
      { key: 'pharmacyEmail', kind: 'email' },
      { key: 'pharmacyWebsite', kind: 'url' },
      { key: 'vatNumber', kind: 'text' },
      { key: 'returnPolicy', kind: 'textarea' },
      { key: 'receiptFooter', kind: 'textarea' },
    ],
  },
  {
    id: 'invoicing',
    fields: [
      { key: 'invoicePrefix', kind: 'text' },
      { key: 'invoiceFooter', kind: 'textarea' },
      { key: 'invoiceNotes', kind: 'textarea' },
      { key: 'receiptFormat', kind: 'select', options: RECEIPT_FORMATS },
    ],
  },
  {
    id: 'taxAndMoney',
    fields: [
      { key: 'taxRate', kind: 'percent' },
      { key: 'defaultTaxRate', kind: 'percent' },
      { key: 'currency', kind: 'text' },
      { key: 'currencySymbol', kind: 'text' },
      { key: 'dateFormat', kind: 'text' },
      { key: 'numberFormat', kind: 'text' },
      { key: 'timezone', kind: 'text' },
      { key: 'thousandsSeparator', kind: 'select', options: THOUSANDS_SEPARATORS },
      { key: 'decimalSeparator', kind: 'select', options: DECIMAL_SEPARATORS },
      { key: 'decimalPlaces', kind: 'number' },
    ],
  },
  {
    id: 'stock',
    fields: [
      { key: 'defaultUnitType', kind: 'text' },
      { key: 'defaultLowStockThreshold', kind: 'number' },
      { key: 'defaultReorderLevel', kind: 'number' },
      { key: 'trackExpiryByDefault', kind: 'boolean' },
      { key: 'defaultTags', kind: 'list' },
      { key: 'categories', kind: 'list' },
      { key: 'stockValuationMethod', kind: 'select', options: STOCK_VALUATION_METHODS },
      { key: 'expiryAlertDays', kind: 'number' },
      { key: 'lowStockAlertEnabled', kind: 'boolean' },
      { key: 'autoReorderEnabled', kind: 'boolean' },
    ],
  },
  {
    id: 'pricing',
    fields: [
      { key: 'defaultMinMargin', kind: 'percent' },
      { key: 'maxDiscount', kind: 'percent' },
      { key: 'enforceMargins', kind: 'boolean' },
      { key: 'allowSuspendWithLowMargin', kind: 'boolean' },
      { key: 'showMarginWarnings', kind: 'boolean' },
      { key: 'marginTolerance', kind: 'percent' },
      { key: 'allowOverrideMargins', kind: 'boolean' },
      { key: 'warnOnLowMargins', kind: 'boolean' },
    ],
  },
  {
    id: 'branches',
    fields: [
      { key: 'branches', kind: 'list' },
      { key: 'defaultBranch', kind: 'select' },
      { key: 'enableBranchSpecificPricing', kind: 'boolean' },
      { key: 'allowProductBranchRestriction', kind: 'boolean' },
      { key: 'enableBranchSeparation', kind: 'boolean' },
    ],
  },
  { id: 'payment', fields: [{ key: 'paymentMethods', kind: 'list' }] },
  {
    id: 'switches',
    fields: [
      { key: 'enableQuickSale', kind: 'boolean' },
      { key: 'enableHoldSales', kind: 'boolean' },
      { key: 'enableDiscounts', kind: 'boolean' },
      { key: 'enableTax', kind: 'boolean' },
      { key: 'autoSaveEnabled', kind: 'boolean' },
      { key: 'printReceiptByDefault', kind: 'boolean' },
    ],
  },
  {
    id: 'display',
    fields: [
      { key: 'displaySettings.showPharmacyName', kind: 'boolean' },
      { key: 'displaySettings.showUserName', kind: 'boolean' },
      { key: 'displaySettings.showGreeting', kind: 'boolean' },
      { key: 'displaySettings.showTagline', kind: 'boolean' },
      // Not on the screen until they can take effect (decision 0031): dashboardDefaultView (the dashboard has no
      // period filters yet), preferredTheme (no dark colour scheme yet), defaultLanguage (English is the only
      // catalogue). They stay in the stored settings, so nothing a pharmacy saved is lost.
      { key: 'displaySettings.compactMode', kind: 'boolean' },
      { key: 'displaySettings.showQuickActions', kind: 'boolean' },
    ],
  },
  {
    id: 'integrations',
    fields: [
      { key: 'integrations.mobileMoney.enabled', kind: 'boolean' },
      { key: 'integrations.mobileMoney.shortcode', kind: 'text' },
      { key: 'integrations.mobileMoney.consumerKey', kind: 'secret' },
      { key: 'integrations.mobileMoney.consumerSecret', kind: 'secret' },
      { key: 'integrations.mobileMoney.passkey', kind: 'secret' },
      { key: 'integrations.kopokopo.enabled', kind: 'boolean' },
      { key: 'integrations.kopokopo.environment', kind: 'select', options: ['sandbox', 'production'] },
      { key: 'integrations.kopokopo.tillNumber', kind: 'text' },
      { key: 'integrations.kopokopo.clientId', kind: 'text' },
      { key: 'integrations.kopokopo.clientSecret', kind: 'secret' },
      { key: 'integrations.kopokopo.apiKey', kind: 'secret' },
      { key: 'integrations.insurance.enabled', kind: 'boolean' },
      { key: 'integrations.insurance.providers', kind: 'list' },
      { key: 'integrations.accounting.enabled', kind: 'boolean' },
      { key: 'integrations.accounting.software', kind: 'text' },
    ],
  },
];

/**
 * Which permission saves which section (docs/decisions/0012-settings-sections-and-permissions.md): the document
 * is one, but a save may change only the sections whose permission the caller holds. Money rules (tax, pricing,
 * payment methods) and the integrations with their secrets are settings:admin, which a manager does not hold.
 */
export const SETTINGS_SECTION_PERMISSIONS = {
  business: 'settings:business',
  display: 'settings:business',
  invoicing: 'settings:invoice',
  stock: 'settings:inventory',
  branches: 'settings:system',
  switches: 'settings:system',
  taxAndMoney: 'settings:admin',
  pricing: 'settings:admin',
  payment: 'settings:admin',
  integrations: 'settings:admin',
} as const satisfies Record<SettingsSectionId, string>;

/** Every permission that saves some section: PUT /api/settings needs at least one of them. */
export const SETTINGS_SAVE_PERMISSIONS = [...new Set(Object.values(SETTINGS_SECTION_PERMISSIONS))] as (typeof SETTINGS_SECTION_PERMISSIONS)[SettingsSectionId][];

export type SecretSettingsField = (typeof SECRET_SETTINGS_FIELDS)[number];

function valueAt(document: unknown, path: string): unknown {
  let node: unknown = document;
  for (const key of path.split('.')) node = isRecord(node) ? node[key] : undefined;
  return node;
}

function setValueAt(document: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = document;
  for (const key of keys.slice(0, -1)) {
    if (!isRecord(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** The sections whose fields differ between two documents (lists compared in order). */
export function changedSettingsSections(before: Settings, after: Settings): SettingsSectionId[] {
  return SETTINGS_SECTIONS.filter((section) =>
    section.fields.some((field) => JSON.stringify(valueAt(before, field.key)) !== JSON.stringify(valueAt(after, field.key))),
  ).map((section) => section.id);
}

/** The document with every secret blanked: what GET shows and what the audit log keeps. */
export function withoutSecrets(settings: Settings): Settings {
  const copy = JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
  for (const path of SECRET_SETTINGS_FIELDS) setValueAt(copy, path, '');
  return copy as unknown as Settings;
}

/** Whether each secret is set (GET /api/settings shows this, never the value). */
export function secretsSet(settings: Settings): Record<SecretSettingsField, boolean> {
  return Object.fromEntries(
    SECRET_SETTINGS_FIELDS.map((path) => {
      const value = valueAt(settings, path);
      return [path, typeof value === 'string' && value !== ''];
    }),
  ) as Record<SecretSettingsField, boolean>;
}

const secretInput = z.string().max(200, 'A key must be at most 200 characters.').nullable();

/** The message of a phone that is not a Kenyan number. */
export const KENYAN_PHONE_MESSAGE = 'Phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).';

/**
 * PUT /api/settings: the whole document, where a secret is write-only: '' keeps the stored one (GET never sends
 * it back), null clears it, any other text replaces it.
 */
export const settingsSaveSchema = settingsSchema.extend({
  /** A Kenyan phone (+254 or 0, then 1 or 7, then 8 digits; decision 0033), or none. */
  pharmacyPhone: z.string().max(30).refine((v) => v.trim() === '' || isKenyanPhone(v), KENYAN_PHONE_MESSAGE),
  /** A time zone of the IANA list (the screen offers Intl.supportedValuesOf('timeZone')). */
  timezone: settingsSchema.shape.timezone.refine(isTimeZone, 'Time zone must be a name from the list, such as Africa/Nairobi.'),
  integrations: integrationsSchema.extend({
    mobileMoney: integrationsSchema.shape.mobileMoney.extend({
      consumerKey: secretInput,
      consumerSecret: secretInput,
      passkey: secretInput,
    }),
    kopokopo: integrationsSchema.shape.kopokopo.extend({
      clientSecret: secretInput,
      apiKey: secretInput,
    }),
  }),
});
export type SettingsSave = z.infer<typeof settingsSaveSchema>;

/** The document to store from a save: each secret '' takes the stored value, null becomes ''. */
export function applySecretInputs(input: SettingsSave, stored: Settings): Settings {
  const next = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  for (const path of SECRET_SETTINGS_FIELDS) {
    const given = valueAt(input, path);
    setValueAt(next, path, given === '' ? valueAt(stored, path) : given === null ? '' : given);
  }
  return next as unknown as Settings;
}

/** GET /api/settings: the document without secrets, which secrets are set, and what the caller may save. */
export const settingsResponseSchema = z.object({
  settings: settingsSchema,
  updatedAt: z.iso.datetime().nullable(),
  secretsSet: z.record(z.enum(SECRET_SETTINGS_FIELDS), z.boolean()),
  /** The sections the caller may change (SETTINGS_SECTION_PERMISSIONS). */
  editableSections: z.array(z.enum(SETTINGS_SECTIONS.map((s) => s.id) as [SettingsSectionId, ...SettingsSectionId[]])),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** PUT /api/settings: the same view after the save, and 'Settings saved successfully'. */
export const settingsSaveResponseSchema = settingsResponseSchema.extend({ message: z.string() });
