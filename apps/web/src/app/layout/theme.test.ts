import { describe, expect, it } from 'vitest';
import { contrastRatio, DARK_TEXT, LIGHT_TEXT, parseColour, readableText } from './theme';

describe('theme text colours', () => {
  it('parses hex and rgb colours', () => {
    expect(parseColour('#10b981')).toEqual([16, 185, 129]);
    expect(parseColour('#fff')).toEqual([255, 255, 255]);
    expect(parseColour('rgb(37, 99, 235)')).toEqual([37, 99, 235]);
    expect(parseColour('hsl(0 0% 0%)')).toBeNull();
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([16, 185, 129], [255, 255, 255])).toBeCloseTo(2.54, 1);
    expect(contrastRatio([37, 99, 235], [255, 255, 255])).toBeCloseTo(5.17, 1);
  });

  it('uses white text on the default primary (#2563eb) and dark text on the default secondary (#10b981)', () => {
    expect(readableText('#2563eb')).toBe(LIGHT_TEXT);
    expect(readableText('#10b981')).toBe(DARK_TEXT);
    expect(readableText('#1e293b')).toBe(LIGHT_TEXT);
    expect(readableText('#fbbf24')).toBe(DARK_TEXT);
  });
});
