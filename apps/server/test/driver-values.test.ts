import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMN_PARSERS, inlineParameters, type Database } from '../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';

// The driver-side text work of a request, made cheaper without changing a character (decision 0081): timestamptz
// values read from a UTC server, and parameters inlined as literals into COMMIT's message (deferWrite).
describe('driver values', () => {
  const nodePostgresIso = (text: string) => (pg.types.getTypeParser(1184) as (value: string) => Date)(text).toISOString();

  it('reads a timestamptz as node-postgres does, to the millisecond, on the fast path and off it', () => {
    const texts = [
      '2026-11-26 17:30:29.710123+00',
      '2026-11-26 17:30:29.71+00',
      '2026-11-26 17:30:29.7+00',
      '2026-11-26 17:30:29.001+00',
      '2026-11-26 17:30:29.000999+00',
      '2026-11-26 17:30:29.57+00',
      '2026-11-26 17:30:29.29+00',
      '2026-11-26 17:30:29+00',
      '2026-12-31 23:59:59.999999+00',
      '2026-11-26 20:30:29.5+03',
      '2026-11-26 12:00:00-05:30',
      '0099-06-01 00:00:00+00',
      '0999-12-31 23:59:59.5+00',
    ];
    for (const text of texts) expect(COLUMN_PARSERS[1184]!(text), text).toBe(nodePostgresIso(text));
    // Every fraction of one to three digits, where a float a hair under the digits would show.
    for (let ms = 0; ms < 1000; ms += 1) {
      for (const fraction of [String(ms).padStart(3, '0'), String(ms / 100).replace('0.', '').padEnd(1, '0')]) {
        const text = `2026-01-02 03:04:05.${fraction}+00`;
        expect(COLUMN_PARSERS[1184]!(text), text).toBe(nodePostgresIso(text));
      }
    }
  });

  it('inlines text as pg.escapeLiteral quotes it, and the rest of the statement as it is', () => {
    const texts = ['plain', "qu'ote", "''", 'back\\slash', "both ' and \\", '$1 inside', '', 'é\u{1F600}\n'];
    for (const text of texts) expect(inlineParameters('SELECT $1', [text])).toBe(`SELECT ${pg.escapeLiteral(text)}`);
    expect(inlineParameters(`SELECT '$1', $2, $1::text, $12`, ['a', 'b', 3, 4, 5, 6, 7, 8, 9, 10, 11, 'l'])).toBe(`SELECT '$1', 'b', 'a'::text, 'l'`);
    expect(inlineParameters('SELECT 1', [])).toBe('SELECT 1');
    expect(inlineParameters('SELECT $1, $2', [null, undefined])).toBe('SELECT NULL, NULL');
    expect(inlineParameters('SELECT $a, $', [])).toBe('SELECT $a, $');
  });
});

// A statement the app sends often becomes a named statement, whose row template and column parsers are built once
// (decision 0081): its rows stay what an unnamed statement gives, every time, on every connection.
describe.each(testDatabaseKinds())('rows of a repeated statement on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps its columns, values, nulls and a repeated column name from one run to the next, on several connections at once', async () => {
    const sql = `SELECT $1::int AS n, $2::text AS t, $3::timestamptz AS at, $4::date AS d, $5::bigint AS big, NULL::text AS none, 'first' AS same, 'second' AS same, g
                   FROM generate_series(1, $1::int) AS g`;
    const run = (i: number) =>
      db.transaction({}, (q) => q.query(sql, [1 + (i % 3), `text ${i}`, new Date(Date.UTC(2026, 10, 26, 12, 0, 0, i)), '2026-11-26', 2 ** 40 + i]));
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => run(i)));
    answers.forEach((rows, i) => {
      expect(rows).toEqual(
        Array.from({ length: 1 + (i % 3) }, (_, k) => ({
          n: 1 + (i % 3),
          t: `text ${i}`,
          at: new Date(Date.UTC(2026, 10, 26, 12, 0, 0, i)).toISOString(),
          d: '2026-11-26',
          big: 2 ** 40 + i,
          none: null,
          same: 'second',
          g: k + 1,
        })),
      );
      expect(Object.keys(rows[0]!)).toEqual(['n', 't', 'at', 'd', 'big', 'none', 'same', 'g']);
    });
    // A statement with no columns, run as often.
    for (let i = 0; i < 5; i += 1) expect(await db.transaction({}, (q) => q.query(`SELECT FROM generate_series(1, $1::int)`, [2]))).toEqual([{}, {}]);
  });
});
