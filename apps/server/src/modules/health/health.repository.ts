import type { Queryable } from '../../db/database.ts';

/** The smallest round trip to the database. */
export async function ping(q: Queryable): Promise<void> {
  await q.query('SELECT 1');
}
