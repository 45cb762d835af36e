import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../src/db/seed.ts';

const README = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'), 'utf8');

describe('README', () => {
  it('opens with the two commands', () => {
    const firstBlock = README.slice(0, README.indexOf('```', README.indexOf('```') + 3));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('lists every seeded sign-in with its password', () => {
    for (const user of SEEDED_USERS) {
      const line = README.split('\n').find((l) => l.includes(`| ${user.email} |`));
      expect(line, user.email).toBeDefined();
      expect(line).toContain(`| ${user.password} |`);
    }
  });
});
