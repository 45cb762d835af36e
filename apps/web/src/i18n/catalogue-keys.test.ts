import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every literal key a screen asks for exists in the English catalogue of its namespace, so no screen ever shows
 * a raw key (and a Swahili catalogue can be checked the same way). Keys built at run time (template literals)
 * are not checked here.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EN = path.join(SRC, 'i18n/en');

const catalogues = new Map<string, unknown>(
  readdirSync(EN)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(EN, f), 'utf8')) as unknown]),
);

function has(ns: string, key: string): boolean {
  let node: unknown = catalogues.get(ns);
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return false;
    const record = node as Record<string, unknown>;
    // Plural forms: key_one / key_other.
    node = part in record ? record[part] : (record[`${part}_other`] ?? record[`${part}_one`]);
  }
  return typeof node === 'string';
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('message catalogue', () => {
  it('has every literal key the screens use, in the namespace they use', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      const namespaces = [...text.matchAll(/useTranslation\(\s*(?:\[\s*)?'([a-z]+)'/g)].map((m) => m[1]!);
      if (!namespaces.length) continue;
      const fallbackNs = namespaces[0]!;
      for (const match of text.matchAll(/\bt\(\s*'([A-Za-z0-9_.:-]+)'/g)) {
        const raw = match[1]!;
        const [ns, key] = raw.includes(':') ? (raw.split(':', 2) as [string, string]) : [fallbackNs, raw];
        checked += 1;
        // A component may hold several t functions (two useTranslation calls): accept any of its namespaces.
        const found = raw.includes(':') ? has(ns, key) : namespaces.some((n) => has(n, key)) || has('common', key);
        if (!found) missing.push(`${path.relative(SRC, file)}: ${raw} (namespace ${ns})`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });
});
