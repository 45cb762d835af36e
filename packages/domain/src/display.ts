/** Small display rules shared by every screen (seed 000 section 4, seed 002 sections 3 and 9). */

/** A user's name as shown: displayName, then name, then the part of the email before the @, then 'User'. */
export function displayName(user: { displayName?: string | null; name?: string | null; email?: string | null }): string {
  const candidates = [user.displayName, user.name, user.email?.split('@')[0]];
  return candidates.map((c) => c?.trim() ?? '').find((c) => c !== '') ?? 'User';
}

export type GreetingKey = 'morning' | 'afternoon' | 'evening';

/** The greeting by the hour (0-23): before 12 morning, before 17 afternoon, otherwise evening. */
export function greetingKey(hour: number): GreetingKey {
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  return 'evening';
}

/** The auto-logout countdown as m:ss (seed 000 section 4); never negative, partial seconds dropped. */
export function formatCountdown(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

/** Unit words that do not take an s (abbreviations and measures). */
const INVARIABLE_UNITS = new Set(['ml', 'l', 'g', 'kg', 'mg', 'mcg', 'iu', 'cm', 'm']);

/** The singular of a unit word as people store it ('pieces' -> 'piece', 'boxes' -> 'box', 'pack' stays). */
export function singularUnit(word: string): string {
  const w = word.trim();
  const lower = w.toLowerCase();
  if (INVARIABLE_UNITS.has(lower)) return w;
  if (/(ch|sh|x|ss)es$/i.test(w)) return w.slice(0, -2);
  if (/ies$/i.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/[^s]s$/i.test(w)) return w.slice(0, -1);
  return w;
}

/** The plural of a unit word ('piece' -> 'pieces', 'box' -> 'boxes', 'ml' stays). */
export function pluralUnit(word: string): string {
  const one = singularUnit(word);
  const lower = one.toLowerCase();
  if (INVARIABLE_UNITS.has(lower) || one === '') return one;
  if (/(ch|sh|x|s|z)$/i.test(one)) return `${one}es`;
  if (/[^aeiou]y$/i.test(one)) return `${one.slice(0, -1)}ies`;
  return `${one}s`;
}

/** A count of a unit as a person writes it: '1 piece', '3 pieces', '0 pieces', '250 ml'. */
export function formatQuantity(count: number, unit: string): string {
  const word = Math.abs(count) === 1 ? singularUnit(unit) : pluralUnit(unit);
  return word ? `${count.toLocaleString('en-GB')} ${word}` : count.toLocaleString('en-GB');
}

/**
 * A product's package as a person writes it: '1 piece' when the package is one unit, else '1 pack of 100 tablets'
 * (a count of packages: '2 packs of 100'; pieces go unsaid). Seed 000 section 3: PackageSize, PackageType, unit.
 */
export function formatPackage(pkg: { packageSize: number; packageType: string; unit: string }, count = 1): string {
  const unit = pkg.unit.trim() || 'piece';
  const type = pkg.packageType.trim();
  const sameWord = singularUnit(type).toLowerCase() === singularUnit(unit).toLowerCase();
  if (pkg.packageSize <= 1 || type === '' || sameWord) return formatQuantity(count * Math.max(1, pkg.packageSize), unit);
  const packages = formatQuantity(count, type);
  const content = singularUnit(unit).toLowerCase() === 'piece' ? pkg.packageSize.toLocaleString('en-GB') : formatQuantity(pkg.packageSize, unit);
  return `${packages} of ${content}`;
}
