import { describe, expect, it } from 'vitest';
import { displayName, formatCountdown, formatPackage, formatQuantity, greetingKey, pluralUnit, singularUnit } from './display.ts';

describe('display name (seed 002 section 3: "displayName, then name, then the part of the email before the @, then User")', () => {
  it('prefers displayName', () => {
    expect(displayName({ displayName: 'Dr. Wanjiru', name: 'Grace Wanjiru', email: 'grace@afya.co.ke' })).toBe('Dr. Wanjiru');
  });

  it('then uses name', () => {
    expect(displayName({ displayName: '', name: 'Grace Wanjiru', email: 'grace@afya.co.ke' })).toBe('Grace Wanjiru');
  });

  it('then the part of the email before the @', () => {
    expect(displayName({ displayName: null, email: 'grace@afya.co.ke' })).toBe('grace');
  });

  it("then 'User'", () => {
    expect(displayName({})).toBe('User');
  });
});

describe('greeting (seed 002 section 9: "before 12, before 17, otherwise evening")', () => {
  it('says morning before 12', () => {
    expect(greetingKey(0)).toBe('morning');
    expect(greetingKey(11)).toBe('morning');
  });

  it('says afternoon from 12 to before 17', () => {
    expect(greetingKey(12)).toBe('afternoon');
    expect(greetingKey(16)).toBe('afternoon');
  });

  it('says evening from 17', () => {
    expect(greetingKey(17)).toBe('evening');
    expect(greetingKey(23)).toBe('evening');
  });
});

describe('auto-logout countdown (seed 000 section 4: "shown as m:ss")', () => {
  it('shows minutes and two-digit seconds', () => {
    expect(formatCountdown(65)).toBe('1:05');
  });

  it('shows under a minute as 0:ss', () => {
    expect(formatCountdown(9)).toBe('0:09');
  });

  it('keeps counting minutes past an hour', () => {
    expect(formatCountdown(3600)).toBe('60:00');
  });

  it('never shows a negative time', () => {
    expect(formatCountdown(-5)).toBe('0:00');
  });

  it('drops partial seconds', () => {
    expect(formatCountdown(59.9)).toBe('0:59');
  });
});

describe('units as a person writes them (issue 8 item 9)', () => {
  it('counts a unit in the singular for one and the plural otherwise', () => {
    expect(formatQuantity(1, 'piece')).toBe('1 piece');
    expect(formatQuantity(1, 'pieces')).toBe('1 piece');
    expect(formatQuantity(3, 'piece')).toBe('3 pieces');
    expect(formatQuantity(0, 'pieces')).toBe('0 pieces');
    expect(formatQuantity(-1, 'tablet')).toBe('-1 tablet');
    expect(formatQuantity(2, 'box')).toBe('2 boxes');
    expect(formatQuantity(1, 'boxes')).toBe('1 box');
    expect(formatQuantity(4, 'bottle')).toBe('4 bottles');
    expect(formatQuantity(250, 'ml')).toBe('250 ml');
    expect(formatQuantity(1200, 'piece')).toBe('1,200 pieces');
  });
  it('describes a package: one unit, or packages of a number of units', () => {
    expect(formatPackage({ packageSize: 1, packageType: 'pieces', unit: 'piece' })).toBe('1 piece');
    expect(formatPackage({ packageSize: 100, packageType: 'pack', unit: 'piece' }, 2)).toBe('2 packs of 100');
    expect(formatPackage({ packageSize: 100, packageType: 'pack', unit: 'piece' })).toBe('1 pack of 100');
    expect(formatPackage({ packageSize: 30, packageType: 'box', unit: 'tablet' })).toBe('1 box of 30 tablets');
    expect(formatPackage({ packageSize: 1, packageType: 'bottle', unit: 'bottle' })).toBe('1 bottle');
    expect(formatPackage({ packageSize: 10, packageType: 'strips', unit: 'tablets' }, 3)).toBe('3 strips of 10 tablets');
  });
  it('keeps singular and plural forms consistent', () => {
    expect(singularUnit('pieces')).toBe('piece');
    expect(singularUnit('sachets')).toBe('sachet');
    expect(singularUnit('glass')).toBe('glass');
    expect(pluralUnit('glass')).toBe('glasses');
    expect(pluralUnit('pieces')).toBe('pieces');
    expect(pluralUnit('supply')).toBe('supplies');
  });
});
