import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, together, type Database, type Queryable } from '../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from './database.ts';

/**
 * Statements sent together (decision 0086): on a PostgreSQL server the transaction's connection pipelines them (all on
 * the wire before the first answer), on PGlite they run one after the other. Either way a batch whose statement fails
 * reports that statement's error (never a later statement's 25P02), commits nothing of the batch or of the
 * transaction, leaves no promise rejected unhandled, and leaves the connection usable.
 */
describe.each(testDatabaseKinds())('statements sent together on %s', (kind) => {
  let db: Database;
  const SCOPE = { pharmacyId: null, userId: null };
  const insert = (q: Queryable, id: number) => q.query(`INSERT INTO pipeline_probe (id, note) VALUES ($1, $2) RETURNING id`, [id, `row ${id}`]);
  const failing = (q: Queryable) => q.query(`SELECT 1 / (SELECT count(*) FROM pipeline_probe WHERE id < 0)::int AS never`);
  const backend = async (q: Queryable) => (await q.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`))[0]!.pid;
  const rowsOf = async () => (await db.owner.query<{ id: number }>(`SELECT id FROM pipeline_probe ORDER BY id`)).map((r) => r.id);

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.owner.query(`CREATE TABLE pipeline_probe (id int PRIMARY KEY, note text NOT NULL)`);
    await db.owner.query(`GRANT SELECT, INSERT ON pipeline_probe TO ${APP_ROLE}`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('the first statement fails: its error is the one reported, nothing is written, the connection goes on', async () => {
    let pid = 0;
    const error = await db
      .transaction(SCOPE, async (q) => {
        pid = await backend(q);
        return together(failing(q), insert(q, 1), insert(q, 2), q.query(`SELECT id FROM pipeline_probe`));
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' }); // division_by_zero, not the later statements' 25P02
    expect(await rowsOf()).toEqual([]);
    // The next transaction takes the same connection (the pool's last released) and works on it.
    const after = await db.transaction(SCOPE, async (q) => {
      const [again, [written]] = await together(backend(q), insert(q, 3));
      return { again, written };
    });
    if (kind === 'postgres') expect(after.again).toBe(pid);
    expect(after.written).toEqual({ id: 3 });
    expect(await rowsOf()).toEqual([3]);
  });

  it('a statement in the middle fails: its error, and neither the statement before it nor after it is committed', async () => {
    const error = await db.transaction(SCOPE, async (q) => together(insert(q, 10), insert(q, 3), insert(q, 11))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 'pipeline_probe_pkey' });
    expect(await rowsOf()).toEqual([3]);
  });

  it('the work sees a later statement fail first: the transaction still reports the statement that failed first', async () => {
    const error = await db
      .transaction(SCOPE, async (q) => {
        const first = failing(q);
        const second = insert(q, 20);
        // Awaited in the other order: the work's error is the second statement's 25P02.
        return together(second, first);
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' });
    expect(await rowsOf()).toEqual([3]);
  });

  it('a prepared statement answered with 25P02 in a failed batch is prepared and usable afterwards', async () => {
    // Seen often enough to be sent as a named (prepared) statement on the server.
    for (let id = 30; id < 35; id += 1) await db.transaction(SCOPE, async (q) => insert(q, id));
    const error = await db.transaction(SCOPE, async (q) => together(failing(q), insert(q, 40))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '22012' });
    for (let id = 41; id < 46; id += 1) await db.transaction(SCOPE, async (q) => insert(q, id));
    expect(await rowsOf()).toEqual([3, 30, 31, 32, 33, 34, 41, 42, 43, 44, 45]);
  });

  it('a statement issued after its transaction ended is refused, never sent on a connection another request holds', async () => {
    let kept: Queryable | undefined;
    await db.transaction(SCOPE, async (q) => {
      kept = q;
      await insert(q, 50);
    });
    await expect(insert(kept!, 51)).rejects.toThrow(/after its transaction ended/);
    expect(await rowsOf()).toContain(50);
    expect(await rowsOf()).not.toContain(51);
  });
});
