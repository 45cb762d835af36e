import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../../packages/domain/src/errors.ts';

/** The browser's errors catalogue covers every code the server can answer, with the same placeholders. */
const catalogue = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'en/errors.json'), 'utf8')) as Record<string, string>;

const placeholders = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]).sort();

describe('the errors catalogue', () => {
  it('has an English sentence for every code of the domain, and no code the domain lacks', () => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(ERRORS).sort());
    for (const text of Object.values(catalogue)) expect(text.trim().length).toBeGreaterThan(0);
  });

  it("uses the placeholders of the domain's message, in i18next syntax", () => {
    for (const [code, { message }] of Object.entries(ERRORS)) {
      expect({ code, placeholders: placeholders(catalogue[code] ?? '', /\{\{(\w+)\}\}/g) }).toEqual({ code, placeholders: placeholders(message, /\{(\w+)\}/g) });
    }
  });
});
