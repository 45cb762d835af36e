// Shared set-up of the stock benchmarks (products-search, csv-import): a database of either kind, the real
// app listening on loopback, one pharmacy with two branches, and a signed-in owner's cookies.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { execSync } from 'node:child_process';
import pg from 'pg';
import { buildApp, type App } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPglite, openPostgres, type Database } from '../../apps/server/src/db/database.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { hashSecret, newSecret, sessionCsrfToken } from '../../apps/server/src/platform/tokens.ts';

export type BenchKind = 'pglite' | 'postgres';

export interface BenchEnv {
  kind: BenchKind;
  db: Database;
  app: App;
  url: string;
  pharmacyId: string;
  ownerId: string;
  branches: { id: string; name: string }[];
  /** Cookie header (session + CSRF) and the CSRF header for writes. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** The PostgreSQL server of the benchmarks: BENCH_DATABASE_URL, else DATABASE_URL, else the local test server. */
export const BENCH_PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which kinds to run: BENCH_KINDS=pglite,postgres (default both). */
export function benchKinds(): BenchKind[] {
  return (process.env.BENCH_KINDS ?? 'pglite,postgres').split(',').map((k) => k.trim()).filter((k): k is BenchKind => k === 'pglite' || k === 'postgres');
}

/** `pgliteDir`: keep PGlite's files in this directory (not durable: no fsync) instead of memory, for large data sets. */
export async function openKind(kind: BenchKind, options: { pgliteDir?: string } = {}): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = options.pgliteDir ? await openPglite(options.pgliteDir, { durable: false }) : await openPglite();
    await migrate(db);
    return { db, drop: async () => undefined };
  }
  const name = `pp_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  await migrate(db);
  return {
    db,
    drop: async () => {
      if (process.env.BENCH_KEEP) return void console.log(`kept database ${name}`);
      const dropper = new pg.Client({ connectionString: BENCH_PG_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A fresh database of the kind with one pharmacy (standard plan: no product limit) and the app listening. */
export async function benchEnv(kind: BenchKind, options: { pgliteDir?: string } = {}): Promise<BenchEnv> {
  const { db, drop } = await openKind(kind, options);
  const [user] = await db.owner.query<{ id: string }>(`INSERT INTO users (email, name, email_verified_at) VALUES ('owner@bench.test', 'Bench Owner', now()) RETURNING id`);
  const ownerId = user!.id;
  // Inserted directly (standard plan, no product limit), like the import tests' pharmacy.
  const pharmacyId = 'bench_pharmacy';
  await db.owner.query(`INSERT INTO pharmacies (id, name) VALUES ($1, 'Bench Pharmacy')`, [pharmacyId]);
  const branches: { id: string; name: string }[] = [];
  for (const [i, name] of ['Main Branch', 'Westlands Branch'].entries()) {
    const [row] = await db.owner.query<{ id: string }>(`INSERT INTO branches (pharmacy_id, name, is_default) VALUES ($1, $2, $3) RETURNING id`, [pharmacyId, name, i === 0]);
    branches.push({ id: row!.id, name });
  }
  await db.owner.query(`INSERT INTO settings (pharmacy_id, document) VALUES ($1, $2)`, [pharmacyId, JSON.stringify({ categories: ['Medicine', 'Equipment', 'Supplies', 'Cosmetics', 'Supplements'] })]);
  await db.owner.query(
    `INSERT INTO subscriptions (pharmacy_id, plan_id, status, max_products, max_transactions, max_users, max_branches, hosting_paid_until) VALUES ($1, 'standard', 'active', -1, -1, -1, -1, now() + interval '1 year')`,
    [pharmacyId],
  );
  await db.owner.query(`INSERT INTO memberships (pharmacy_id, user_id, role, is_owner, has_pos_access, default_branch_id) VALUES ($1, $2, 'owner', true, true, $3)`, [
    pharmacyId,
    ownerId,
    branches[0]!.id,
  ]);
  const created = { pharmacyId, branches };
  const token = newSecret();
  await db.owner.query(
    `INSERT INTO sessions (token_hash, user_id, pharmacy_id, branch_id, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
    [hashSecret(token), ownerId, created.pharmacyId, created.branches[0]!.id],
  );
  const csrf = sessionCsrfToken(token); // the session's own CSRF token (decision 0089)
  const app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    kind,
    db,
    app,
    url,
    pharmacyId: created.pharmacyId,
    ownerId,
    branches: created.branches,
    headers: { cookie: `pp_session=${token}; pp_csrf=${csrf}`, 'x-csrf-token': csrf },
    async close() {
      await app.close();
      await db.close();
      await drop();
    },
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** One line about the machine: cores, memory, Node. */
export function machine(): string {
  let free = '';
  try {
    const mem = execSync('free -h', { encoding: 'utf8' }).split('\n')[1]?.trim().split(/\s+/) ?? [];
    free = `${mem[1]} total, ${mem[6] ?? '?'} available (free -h)`;
  } catch {
    free = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  }
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), memory: ${free}, Node ${process.version}`;
}

export { generatedCsv, productName } from './generate.ts';
