import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SECRET_SETTINGS_FIELDS, SETTINGS_SECTIONS, type Settings } from '@pharmapoint/domain/settings';
import { createTestApp, type TestApp } from './app.ts';
import { testDatabaseKinds } from './database.ts';
import { createPharmacyWithStaff, type PharmacyFixture } from './fixtures.ts';
import type { TestClient } from './http.ts';
import { countRows, loginAs, tenantSnapshot } from './platform-helpers.ts';

/** The M-Pesa (Daraja) secrets this file sets; the Kopo Kopo till's are tested in till-mpesa.test.ts (never set here). */
const allSecretsSet = (set: boolean) => Object.fromEntries(SECRET_SETTINGS_FIELDS.map((path) => [path, set && path.startsWith('integrations.mobileMoney.')]));

describe.each(testDatabaseKinds())('settings and theme on %s', (kind) => {
  let t: TestApp;
  let ph: PharmacyFixture;
  let other: PharmacyFixture;
  let owner: TestClient;
  let manager: TestClient;
  let cashier: TestClient;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ph = await createPharmacyWithStaff(t.db, {
      id: 'set_ph',
      name: 'Neema Chemists',
      plan: 'standard',
      roles: ['owner', 'manager', 'cashier'],
      branchNames: ['Main Branch', 'Kisumu Branch'],
    });
    other = await createPharmacyWithStaff(t.db, { id: 'set_other', plan: 'standard', roles: ['owner'] });
    owner = await loginAs(t, ph.users.owner!.email);
    manager = await loginAs(t, ph.users.manager!.email);
    cashier = await loginAs(t, ph.users.cashier!.email);
  });
  afterAll(async () => t?.close());

  const storeDocument = (pharmacyId: string, document: unknown) =>
    t.db.owner.query(`UPDATE settings SET document = $2 WHERE pharmacy_id = $1`, [pharmacyId, JSON.stringify(document)]);
  const storedDocument = async (pharmacyId: string) =>
    (await t.db.owner.query<{ document: Settings }>(`SELECT document FROM settings WHERE pharmacy_id = $1`, [pharmacyId]))[0]!.document;

  it('gives a new pharmacy the defaults of seed 000 section 9', async () => {
    const res = await owner.get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({
      pharmacyName: 'Neema Chemists',
      currency: 'KES',
      currencySymbol: 'KSh',
      taxRate: 16,
      defaultTaxRate: 16,
      invoicePrefix: 'INV',
      defaultLowStockThreshold: 5,
      defaultReorderLevel: 2,
      defaultMinMargin: 22,
      maxDiscount: 10,
      expiryAlertDays: 30,
      decimalPlaces: 2,
      thousandsSeparator: ',',
      decimalSeparator: '.',
      dateFormat: 'en-GB',
      numberFormat: 'en-KE',
      timezone: 'Africa/Nairobi',
      defaultUnitType: 'Pieces',
      stockValuationMethod: 'FIFO',
      paymentMethods: ['Cash', 'M-Pesa', 'Insurance', 'Bank Transfer', 'Credit Card'],
      categories: ['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements'],
      branches: ['Main Branch', 'Kisumu Branch'],
      defaultBranch: 'Main Branch',
      lowStockAlertEnabled: true,
      enableQuickSale: true,
      enableHoldSales: true,
      enableDiscounts: true,
      enableTax: true,
      displaySettings: { preferredTheme: 'light', dashboardDefaultView: 'today', defaultLanguage: 'en' },
    });
    expect(res.body.updatedAt).toEqual(expect.any(String));
  });

  it('creates the default document when a pharmacy has none', async () => {
    await t.db.owner.query(`DELETE FROM settings WHERE pharmacy_id = $1`, [other.pharmacyId]);
    const otherOwner = await loginAs(t, other.users.owner!.email);
    const res = await otherOwner.get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBeNull();
    expect(res.body.settings).toMatchObject({ pharmacyName: `Pharmacy ${other.pharmacyId}`, taxRate: 16, defaultBranch: 'Main Branch' });
    expect(await countRows(t.db, 'settings', other.pharmacyId)).toBe(1);
  });

  it('sanitises a stored document on load: lists, numbers, flags, the default branch and unknown keys', async () => {
    await storeDocument(ph.pharmacyId, {
      ...DEFAULT_SETTINGS,
      pharmacyName: 'Neema Chemists',
      categories: 'Medicine',
      paymentMethods: 'Cash',
      taxRate: 'sixteen',
      maxDiscount: '12.5',
      defaultLowStockThreshold: null,
      lowStockAlertEnabled: undefined,
      enableQuickSale: 'maybe',
      enableHoldSales: 'false',
      enableTax: undefined,
      defaultBranch: 'Closed Branch',
      legacyField: 'dropped',
    });
    const { settings } = (await owner.get('/api/settings')).body;
    expect(settings.categories).toEqual(['Medicine']);
    expect(settings.paymentMethods).toEqual(['Cash']);
    expect(settings.taxRate).toBe(16);
    expect(settings.maxDiscount).toBe(12.5);
    expect(settings.defaultLowStockThreshold).toBe(5);
    expect(settings.lowStockAlertEnabled).toBe(true);
    expect(settings.enableQuickSale).toBe(true);
    expect(settings.enableHoldSales).toBe(false);
    expect(settings.enableTax).toBe(true);
    // A default branch that is not one of the branches falls back to the default branch of the pharmacy.
    expect(settings.defaultBranch).toBe('Main Branch');
    expect(settings).not.toHaveProperty('legacyField');
  });

  it('reverts a corrupt document (keys all numeric) to the defaults', async () => {
    await storeDocument(ph.pharmacyId, { 0: 'c', 1: 'o', 2: 'r', 3: 'r', 4: 'u', 5: 'p', 6: 't' });
    const { settings } = (await owner.get('/api/settings')).body;
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, branches: ['Main Branch', 'Kisumu Branch'], defaultBranch: 'Main Branch' });
  });

  it("saves the whole document with 'Settings saved successfully'; branches stay those of the branches table", async () => {
    const current = (await owner.get('/api/settings')).body.settings as Settings;
    const next: Settings = {
      ...current,
      pharmacyName: 'Neema Chemists Ltd',
      pharmacyEmail: 'info@neema.example',
      taxRate: 8,
      maxDiscount: 15,
      categories: ['Medicine', 'Baby Care', 'Medicine'],
      branches: ['Somewhere Else'],
      defaultBranch: 'Kisumu Branch',
      enableDiscounts: false,
      displaySettings: { ...current.displaySettings, preferredTheme: 'dark', dashboardDefaultView: 'thisMonth' },
      integrations: {
        ...current.integrations,
        mobileMoney: { enabled: true, shortcode: '174379', consumerKey: 'ck-secret', consumerSecret: 'cs-secret', passkey: 'pk-secret' },
      },
    };
    const auditBefore = await countRows(t.db, 'audit_log', ph.pharmacyId);
    const res = await owner.put('/api/settings', next);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Settings saved successfully');
    expect(res.body.settings).toMatchObject({
      pharmacyName: 'Neema Chemists Ltd',
      taxRate: 8,
      maxDiscount: 15,
      categories: ['Medicine', 'Baby Care'],
      branches: ['Main Branch', 'Kisumu Branch'],
      defaultBranch: 'Main Branch',
      enableDiscounts: false,
    });
    // The secrets are stored, and never sent back: the answer says only that each is set.
    const stored = await storedDocument(ph.pharmacyId);
    expect(stored).toEqual({ ...res.body.settings, integrations: next.integrations });
    expect(res.body.settings.integrations.mobileMoney).toMatchObject({ consumerKey: '', consumerSecret: '', passkey: '', shortcode: '174379' });
    expect(res.body.secretsSet).toEqual(allSecretsSet(true));
    const reread = await owner.get('/api/settings');
    expect(reread.body.settings).toEqual(res.body.settings);
    expect(reread.body.secretsSet).toEqual(allSecretsSet(true));
    expect(reread.body.editableSections).toEqual(SETTINGS_SECTIONS.map((section) => section.id));

    // The business name is the pharmacy's name everywhere (sidebar, /api/me).
    expect((await cashier.get('/api/me')).body.pharmacy.name).toBe('Neema Chemists Ltd');

    expect(await countRows(t.db, 'audit_log', ph.pharmacyId)).toBe(auditBefore + 1);
    const [audit] = await t.db.owner.query<{ after: Settings; user_id: string }>(
      `SELECT after, user_id FROM audit_log WHERE pharmacy_id = $1 AND entity = 'settings' ORDER BY at DESC LIMIT 1`,
      [ph.pharmacyId],
    );
    expect(audit?.user_id).toBe(ph.users.owner!.id);
    // The audit log keeps no secrets.
    expect(audit?.after.integrations.mobileMoney).toMatchObject({ consumerKey: '', consumerSecret: '', passkey: '', shortcode: '174379' });
  });

  it('never sends a secret value to anyone: GET says only whether each is set', async () => {
    for (const client of [owner, manager, cashier]) {
      const res = await client.get('/api/settings');
      expect(res.status).toBe(200);
      expect(res.body.settings.integrations.mobileMoney).toEqual({ enabled: true, shortcode: '174379', consumerKey: '', consumerSecret: '', passkey: '' });
      expect(res.body.secretsSet).toEqual(allSecretsSet(true));
      expect(JSON.stringify(res.body)).not.toMatch(/ck-secret|cs-secret|pk-secret/);
      expect(res.body.settings.pharmacyName).toBe('Neema Chemists Ltd');
    }
    // What each may change: the manager (settings:business) the business and display sections, the cashier nothing.
    expect((await manager.get('/api/settings')).body.editableSections).toEqual(['business', 'display']);
    expect((await cashier.get('/api/settings')).body.editableSections).toEqual([]);
  });

  it("keeps a stored secret when a save sends it empty, replaces it when given, clears it with null", async () => {
    const current = (await owner.get('/api/settings')).body.settings as Settings;
    // The screen sends back what GET gave it: empty secrets. The stored ones stay.
    const kept = await owner.put('/api/settings', { ...current, pharmacyTagline: 'Kept secrets' });
    expect(kept.status).toBe(200);
    expect((await storedDocument(ph.pharmacyId)).integrations.mobileMoney).toMatchObject({
      consumerKey: 'ck-secret',
      consumerSecret: 'cs-secret',
      passkey: 'pk-secret',
    });
    const withNew = { ...current.integrations.mobileMoney, consumerKey: '', consumerSecret: 'cs-rotated', passkey: null };
    const changed = await owner.put('/api/settings', { ...current, integrations: { ...current.integrations, mobileMoney: withNew } });
    expect(changed.status).toBe(200);
    expect(changed.body.secretsSet).toEqual({
      'integrations.mobileMoney.consumerKey': true,
      'integrations.mobileMoney.consumerSecret': true,
      'integrations.mobileMoney.passkey': false,
      'integrations.kopokopo.clientSecret': false,
      'integrations.kopokopo.apiKey': false,
    });
    expect(JSON.stringify(changed.body)).not.toMatch(/ck-secret|cs-rotated/);
    expect((await storedDocument(ph.pharmacyId)).integrations.mobileMoney).toMatchObject({
      consumerKey: 'ck-secret',
      consumerSecret: 'cs-rotated',
      passkey: '',
    });
    // Put the passkey back for the tests below.
    const restore = { ...current.integrations.mobileMoney, consumerKey: '', consumerSecret: 'cs-secret', passkey: 'pk-secret' };
    expect((await owner.put('/api/settings', { ...current, integrations: { ...current.integrations, mobileMoney: restore } })).status).toBe(200);
  });

  it('refuses bad documents with 400 and keeps the stored one', async () => {
    const current = (await owner.get('/api/settings')).body.settings as Settings;
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const bad: unknown[] = [
      { ...current, taxRate: 'abc' },
      { ...current, taxRate: 101 },
      { ...current, defaultMinMargin: 100 },
      { ...current, decimalPlaces: 2.5 },
      { ...current, pharmacyEmail: 'not-an-email' },
      { ...current, currency: 'shillings' },
      { ...current, invoicePrefix: 'INV/2026' },
      { ...current, unknownField: true },
      { ...current, displaySettings: { ...current.displaySettings, preferredTheme: 'neon' } },
      { ...current, returnPolicy: 'x'.repeat(1001) },
      { pharmacyName: 'Only One Field' },
      [],
    ];
    for (const body of bad) {
      const res = await owner.put('/api/settings', body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const malformed = await owner.request('PUT', '/api/settings', '{"pharmacyName":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
  });

  it('answers each bad field with a sentence by its label; phones are Kenyan, time zones from the IANA list (decision 0033)', async () => {
    const current = (await owner.get('/api/settings')).body.settings as Settings;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ taxRate: 101 }, 'taxRate', 'Tax rate must be between 0 and 100 %.'],
      [{ taxRate: 'abc' }, 'taxRate', 'Tax rate must be a number.'],
      [{ decimalPlaces: 2.5 }, 'decimalPlaces', 'Decimal places must be a whole number.'],
      [{ expiryAlertDays: 5000 }, 'expiryAlertDays', 'Expiry alert must be between 0 and 3,650 days.'],
      [{ returnPolicy: 'x'.repeat(1001) }, 'returnPolicy', 'Return policy must be at most 1,000 characters.'],
      [{ pharmacyPhone: '12345' }, 'pharmacyPhone', 'Phone must be a Kenyan number: +254 or 0, then 7 or 1, then 8 digits (e.g. 0712 345 678).'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'Time zone must be a name from the list, such as Africa/Nairobi.'],
    ];
    for (const [change, path, message] of cases) {
      const res = await owner.put('/api/settings', { ...current, ...change });
      expect(res.status, path).toBe(400);
      expect(res.body.error.details.issues[0], path).toMatchObject({ path, message });
    }
    for (const phone of ['0712 345 678', '+254 112 345 678', '']) {
      expect((await owner.put('/api/settings', { ...current, pharmacyPhone: phone, timezone: 'Europe/London' })).status, phone).toBe(200);
    }
    expect((await owner.put('/api/settings', current)).status).toBe(200);
  });

  it('lets settings:business save, and refuses members without a settings permission (403)', async () => {
    const current = (await manager.get('/api/settings')).body.settings as Settings;
    const saved = await manager.put('/api/settings', { ...current, pharmacyTagline: 'Your health, our care' });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Settings saved successfully');

    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const refused = await cashier.put('/api/settings', { ...current, pharmacyName: 'Cashier Was Here' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("You don't have permission to access this page.");
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
  });

  it('refuses a manager (settings:business) tax, margins, payment methods, M-Pesa and stock settings, writing nothing', async () => {
    const current = (await manager.get('/api/settings')).body.settings as Settings;
    const mpesa = current.integrations.mobileMoney;
    const attempts: [string, Settings | Record<string, unknown>][] = [
      ['taxAndMoney', { ...current, taxRate: 0 }],
      ['pricing', { ...current, defaultMinMargin: 1 }],
      ['pricing', { ...current, enforceMargins: !current.enforceMargins }],
      ['payment', { ...current, paymentMethods: ['Cash'] }],
      ['integrations', { ...current, integrations: { ...current.integrations, mobileMoney: { ...mpesa, shortcode: '600000' } } }],
      ['integrations', { ...current, integrations: { ...current.integrations, mobileMoney: { ...mpesa, passkey: 'manager-passkey' } } }],
      ['integrations', { ...current, integrations: { ...current.integrations, mobileMoney: { ...mpesa, consumerSecret: null } } }],
      ['stock', { ...current, expiryAlertDays: 90 }],
      ['invoicing', { ...current, invoicePrefix: 'MGR' }],
      ['switches', { ...current, enableDiscounts: !current.enableDiscounts }],
    ];
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    const storedBefore = await storedDocument(ph.pharmacyId);
    for (const [section, body] of attempts) {
      const res = await manager.put('/api/settings', body);
      expect(res.status, section).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.body.error.details.sections).toEqual([section]);
    }
    // A business change mixed with a tax change is refused whole.
    const mixed = await manager.put('/api/settings', { ...current, pharmacyTagline: 'Mixed', taxRate: 0 });
    expect(mixed.status).toBe(403);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
    expect(await storedDocument(ph.pharmacyId)).toEqual(storedBefore);
  });

  it('gates each section by its permission: an explicit settings:invoice list saves invoicing only', async () => {
    await t.db.owner.query(`UPDATE memberships SET permissions = $3 WHERE pharmacy_id = $1 AND user_id = $2`, [
      ph.pharmacyId,
      ph.users.cashier!.id,
      ['dashboard:view', 'settings:invoice'],
    ]);
    try {
      const invoicer = await loginAs(t, ph.users.cashier!.email);
      const view = await invoicer.get('/api/settings');
      expect(view.body.editableSections).toEqual(['invoicing']);
      const current = view.body.settings as Settings;
      const saved = await invoicer.put('/api/settings', { ...current, invoicePrefix: 'NEEMA', invoiceNotes: 'Pay within 30 days' });
      expect(saved.status).toBe(200);
      expect(saved.body.settings).toMatchObject({ invoicePrefix: 'NEEMA', invoiceNotes: 'Pay within 30 days' });
      const refused = await invoicer.put('/api/settings', { ...current, invoicePrefix: 'NEEMA', pharmacyTagline: 'Not mine' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.details.sections).toEqual(['business']);
    } finally {
      await t.db.owner.query(`UPDATE memberships SET permissions = NULL WHERE pharmacy_id = $1 AND user_id = $2`, [ph.pharmacyId, ph.users.cashier!.id]);
    }
  });

  it("keeps each pharmacy's settings to itself", async () => {
    const otherOwner = await loginAs(t, other.users.owner!.email);
    const res = await otherOwner.get('/api/settings');
    expect(res.body.settings.pharmacyName).toBe(`Pharmacy ${other.pharmacyId}`);
    expect(res.body.settings.integrations.mobileMoney.consumerSecret).toBe('');
  });

  it('serves the default theme, saves a new one for settings:system and shows it in /api/me', async () => {
    const initial = await cashier.get('/api/pharmacy/theme');
    expect(initial.status).toBe(200);
    expect(initial.body.theme).toMatchObject({ primaryColor: '#2563eb', secondaryColor: '#10b981' });

    const theme = {
      primaryColor: '#0f766e',
      secondaryColor: '#f59e0b',
      headerColor: '#134e4a',
      appTitle: 'Neema POS',
      receiptHeader: 'Neema Chemists Ltd\nKisumu',
      receiptFooter: 'Asante! Get well soon.',
      logoUrl: 'https://cdn.example.test/neema.png',
    };
    const saved = await owner.put('/api/pharmacy/theme', theme);
    expect(saved.status).toBe(200);
    expect(saved.body.theme).toEqual(theme);
    expect((await cashier.get('/api/pharmacy/theme')).body.theme).toEqual(theme);
    const me = await cashier.get('/api/me');
    expect(me.body.pharmacy.theme).toMatchObject({ primaryColor: '#0f766e', appTitle: 'Neema POS' });
  });

  it('refuses bad themes (400) and theme changes without settings:system (403)', async () => {
    const before = await tenantSnapshot(t.db, ph.pharmacyId);
    for (const body of [
      { primaryColor: 'teal', secondaryColor: '#f59e0b' },
      { primaryColor: '#0f766e' },
      { primaryColor: '#0f766e', secondaryColor: '#f59e0b', logoUrl: 'javascript:alert(1)' },
      { primaryColor: '#0f766e', secondaryColor: '#f59e0b', logoUrl: 'http://insecure.example/logo.png' },
      { primaryColor: '#0f766e', secondaryColor: '#f59e0b', receiptFooter: 'x'.repeat(501) },
      { primaryColor: '#0f766e', secondaryColor: '#f59e0b', fontFamily: 'Comic Sans' },
    ]) {
      const res = await owner.put('/api/pharmacy/theme', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // The manager may save business settings but not the theme (settings:system).
    const refused = await manager.put('/api/pharmacy/theme', { primaryColor: '#000000', secondaryColor: '#ffffff' });
    expect(refused.status).toBe(403);
    expect(await tenantSnapshot(t.db, ph.pharmacyId)).toEqual(before);
  });
});
