import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@pharmapoint/domain/settings';
import { parseList, sectionOf, toDocument, toFormValues, validateSettings } from './settings-values.ts';

describe('settings form values', () => {
  it('round-trips the default document unchanged', () => {
    const result = validateSettings(toDocument(DEFAULT_SETTINGS, toFormValues(DEFAULT_SETTINGS)));
    expect(result).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it('edits lists one item per line, dropping blanks and trimming', () => {
    expect(parseList(' Cash \n\nM-Pesa\n  ')).toEqual(['Cash', 'M-Pesa']);
    const values = { ...toFormValues(DEFAULT_SETTINGS), paymentMethods: 'Cash\nCheque\n' };
    const result = validateSettings(toDocument(DEFAULT_SETTINGS, values));
    expect(result.ok && result.settings.paymentMethods).toEqual(['Cash', 'Cheque']);
  });

  it('writes nested fields and numbers', () => {
    const values = { ...toFormValues(DEFAULT_SETTINGS), 'displaySettings.compactMode': true, maxDiscount: '12.5' };
    const result = validateSettings(toDocument(DEFAULT_SETTINGS, values));
    expect(result.ok && result.settings.displaySettings.compactMode).toBe(true);
    expect(result.ok && result.settings.maxDiscount).toBe(12.5);
  });

  it('reports invalid fields by path, an empty number included, and knows their section', () => {
    const values = { ...toFormValues(DEFAULT_SETTINGS), pharmacyEmail: 'nope', maxDiscount: '', 'integrations.mobileMoney.shortcode': 'abc' };
    const result = validateSettings(toDocument(DEFAULT_SETTINGS, values));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['integrations.mobileMoney.shortcode', 'maxDiscount', 'pharmacyEmail']);
    expect(sectionOf('maxDiscount')).toBe('pricing');
    expect(sectionOf('integrations.mobileMoney.shortcode')).toBe('integrations');
  });
});
