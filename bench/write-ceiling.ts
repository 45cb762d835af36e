// Benchmark: how far the database alone lets a write go against pgbench's TPC-B (issue 6 item 12, issue 9
// performance (a): a stock adjustment, a product creation and a 3-item sale each at ≥ 0.3 of TPC-B at 20 clients).
// The app's SQL for one request of each kind is captured, then replayed by pgbench without Node, HTTP or JSON:
//   - a fresh PostgreSQL database set up as the other benches (lib/stock-bench.ts: the bench pharmacy, standard plan,
//     the signed-in owner) with BENCH_PRODUCTS products imported through POST /api/products/import, each with a batch
//     of 100,000 pieces in the Main Branch; a few requests of each kind first (the app names its statements after
//     three sightings), then one keyed request of each kind is captured: every pg.Client.query call with its text,
//     parameters, statement name and result rows (the one-line stock adjustment, the new product, the 3-item cash
//     sale), and the NOTIFY the app's relay sends for it after COMMIT;
//   - each captured request becomes a pgbench script (-M simple) that sends the same messages in the same order as
//     the app role with row-level security (the BEGIN message as the app sends it: set_config('role', ...) and the
//     tenant settings, and the Idempotency-Key's claim): a simple-protocol text of several statements as one pgbench
//     compound command (\;); a statement the app sends as a named prepared statement is PREPAREd once per connection
//     (in its first transaction, as the app role) and sent as EXECUTE with the captured parameters as literals;
//   - what must change per transaction changes: every UUID the app made for the request (Idempotency-Key, sale,
//     adjustment and item ids, the new product's name) is a new random one per transaction (pgbench random(), decimal
//     digits are hex digits), a value the database made (the new product's id, the sale's invoice number) is read
//     back with \aset and sent where the app sends it, the captured timestamps are now(), the products are drawn at
//     random from the catalogue (BENCH_VARIANTS scripts, each with other products; pgbench picks one per transaction),
//     the stock quantities the app computes from the rows it locked are computed by pgbench from the same rows (for
//     one line from the locking statement's own result; for several lines pgbench cannot read several rows, so one
//     extra prepared one-row SELECT of the locked rows goes in the same message as the batches' read — the only
//     statement the app does not send; the invoice counter is the SQL's own);
//   - the pharmacy's history first (BENCH_HISTORY transactions of each kind by the replay itself, then ANALYZE as
//     the other benches do), then each kind for BENCH_SECONDS at BENCH_CONNECTIONS clients, beside pgbench's TPC-B
//     (scale BENCH_PGBENCH_SCALE, its own scratch database, run before and after the others) on the same server:
//       (a)  the app's SQL as is, with the NOTIFY the app's relay sends after COMMIT (one a request: under load the
//            relay sends several requests' events in one statement, so this is its most);
//       (h)  the same request over HTTP to the app on the same database (autocannon in this process; BENCH_HTTP=0:
//            none), for "the SQL alone reaches X of TPC-B; with Node and HTTP, Y" from one run;
//       (a2) (a) without the NOTIFY;  (c) (a) as the owner, without the app role (no row-level security);
//       (b)  (a) with the foreign keys from and to the tables the writes changed dropped (last: a scratch database);
//     after each run: branch stock = ledger, batches = branch stock, one row of the kind and one answered
//     Idempotency-Key per transaction (HTTP: per 201, plus at most one request a connection still in flight).
// Prints a markdown table: transactions/s and its ratio to TPC-B (the mean of its two runs), and the CPU a
// transaction costs: the whole machine's (lib/cpu.ts: every process, other users' too), the PostgreSQL backends of the
// run's database, the server's background writers (WAL writer, checkpointer, background writer), the client (pgbench,
// or this Node process with the app and autocannon), their sum ("own CPU") and TPC-B's own CPU ÷ the row's. On a shared
// 2-core machine rates move with everything else; the CPU a transaction of its own processes hardly does, and on a
// machine where only the database and its clients run, the rate ratio tends to the own-CPU ratio: with pgbench as the
// client, the database's own ceiling. Never passes or fails on time.
// Run: npx tsx bench/write-ceiling.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=20, BENCH_PRODUCTS=300, BENCH_HISTORY=1000,
//      BENCH_PGBENCH_SCALE=20, BENCH_VARIANTS=120 (pgbench takes at most 128 scripts), BENCH_DATABASE_URL=...,
//      BENCH_ONLY=adjustment|product|sale, BENCH_HTTP=0, BENCH_PRINT_SCRIPT=1: print one script of each kind,
//      BENCH_KEEP_SCRIPTS=1: keep the script files (they are kept when pgbench fails))
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { inlineParameters } from '../apps/server/src/db/database.ts';
import { startCpu } from './lib/cpu.ts';
import { pgbenchDatabase, tpcbScript } from './lib/pgbench.ts';
import { runScripts, startBackgroundCpu, type ReplayFigures } from './lib/pgbench-replay.ts';
import { analyzeLikeARunningServer } from './lib/statistics.ts';
import { BENCH_PG_URL, benchEnv, machine, type BenchEnv } from './lib/stock-bench.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 300);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1000);
const SCALE = Number(process.env.BENCH_PGBENCH_SCALE ?? 20);
const VARIANTS = Math.min(126, Number(process.env.BENCH_VARIANTS ?? 120));
const PRICE_CENTS = 1200;
const SALE_LINES = 3;

type Kind = 'adjustment' | 'product' | 'sale';
const KINDS: Kind[] = (['adjustment', 'product', 'sale'] as const).filter((k) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY === k);

// ------------------------------------------------------------------------------------------------ capture

interface Call {
  text: string;
  values?: unknown[];
  /** The statement's name when the app sent it as a named prepared statement. */
  name?: string;
  /** Result rows of a one-statement call. */
  rows?: Record<string, unknown>[];
  /** The pg.Client it went through. */
  client: unknown;
}

let recording: Call[] | null = null;
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
  const result = originalQuery.apply(this, args);
  if (recording) {
    const first = args[0] as string | { text: string; values?: unknown[]; name?: string };
    const call: Call = typeof first === 'string' ? { text: first, values: args[1] as unknown[] | undefined, client: this } : { text: first.text, values: first.values, name: first.name, client: this };
    recording.push(call);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      void (result as Promise<pg.QueryResult | pg.QueryResult[]>).then(
        (r) => {
          if (!Array.isArray(r)) call.rows = r.rows as Record<string, unknown>[];
        },
        () => undefined,
      );
    }
  }
  return result;
};

interface CatalogueItem {
  id: string;
  name: string;
  sku: string;
  batchId: string;
  batchNumber: string;
}

async function importCatalogue(env: BenchEnv): Promise<CatalogueItem[]> {
  const lines = ['Name,SKU,Category,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,DDA'];
  for (let i = 0; i < PRODUCTS; i += 1) lines.push(`Till product ${i},TILL-${i},Medicine,Main Branch,${(PRICE_CENTS / 100).toFixed(2)},8.00,100000,TB${i},2030-06-30,No`);
  const response = await fetch(`${env.url}/api/products/import?mode=all-or-nothing`, { method: 'POST', headers: { ...env.headers, 'content-type': 'text/csv' }, body: lines.join('\n') });
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${await response.text()}`);
  const rows = await env.db.owner.query<CatalogueItem>(
    `SELECT p.id, p.name, p.sku, b.id AS "batchId", b.batch_number AS "batchNumber"
       FROM products p JOIN batches b ON b.pharmacy_id = p.pharmacy_id AND b.product_id = p.id
      WHERE p.pharmacy_id = $1 AND p.sku LIKE 'TILL-%' ORDER BY p.sku`,
    [env.pharmacyId],
  );
  if (rows.length !== PRODUCTS) throw new Error(`expected ${PRODUCTS} products with one batch each, found ${rows.length}`);
  return rows;
}

/** The request of each kind; `lines` are the catalogue products it uses. */
const PATHS: Record<Kind, string> = { adjustment: '/api/stock/adjustments', product: '/api/products', sale: '/api/sales' };

function request(kind: Kind, lines: readonly CatalogueItem[]): { path: string; body: unknown } {
  if (kind === 'adjustment') return { path: '/api/stock/adjustments', body: { reason: 'Ceiling benchmark', items: [{ productId: lines[0]!.id, delta: 1, reasonType: 'count_correction' }] } };
  if (kind === 'product') return { path: '/api/products', body: { name: `Ceiling product ${randomUUID()}`, sellingPriceCents: 1500, purchasePriceCents: 1000 } };
  return {
    path: '/api/sales',
    body: {
      id: randomUUID(),
      lines: lines.map((p) => ({ productId: p.id, quantity: 1 })),
      payments: [{ method: 'Cash', amountCents: PRICE_CENTS * lines.length }],
      expectedTotalCents: PRICE_CENTS * lines.length,
    },
  };
}

async function post(env: BenchEnv, kind: Kind, lines: readonly CatalogueItem[]): Promise<void> {
  const { path, body } = request(kind, lines);
  const response = await fetch(`${env.url}${path}`, {
    method: 'POST',
    headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${kind}: ${response.status} ${await response.text()}`);
}

/** Every query the app sends for one request (and its relay's NOTIFY after COMMIT, within 300 ms). */
async function capture(env: BenchEnv, kind: Kind, lines: readonly CatalogueItem[]): Promise<Call[]> {
  for (let i = 0; i < 5; i += 1) await post(env, kind, lines); // the app names a statement on its third sighting
  await new Promise((resolve) => setTimeout(resolve, 300));
  const calls: Call[] = [];
  recording = calls;
  await post(env, kind, lines);
  await new Promise((resolve) => setTimeout(resolve, 300));
  recording = null;
  return calls;
}

// ------------------------------------------------------------------------------------------------ replay script

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;
/** A database-made value pgbench may substitute into a literal as is. */
const SAFE_VALUE = /^(?!\d{4}-\d\d-\d\d)[A-Za-z0-9_.-]{6,}$/;
const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => string | Buffer | null };

/** A parameter as the literal of the text node-postgres sends for it (as database.ts inlines deferred writes). */
function parameterLiteral(value: unknown): string {
  if (value === undefined) return 'NULL';
  const text = pgUtils.prepareValue(value);
  if (text === null) return 'NULL';
  if (Buffer.isBuffer(text)) return `'\\x${text.toString('hex')}'`;
  const quoted = text.replace(/'/g, "''");
  return text.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

const isTimestamp = (value: unknown) => value instanceof Date || (typeof value === 'string' && TIMESTAMP.test(value));

/** The statements of a simple-protocol text (split at semicolons outside quoted strings). */
function splitStatements(text: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (c === ';' && !quoted) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter((s) => s.length > 0);
}

/** What a call sends: its SQL text and its parameters as literals (to find the values in it). */
function sentText(call: Call): string {
  return call.values ? `${call.text}\n${call.values.map(parameterLiteral).join(',')}` : call.text;
}

interface Plan {
  kind: Kind;
  calls: Call[];
  /** Index of the BEGIN message and of the message with COMMIT. */
  begin: number;
  commit: number;
  /** UUIDs the app made for the request → pgbench variable stem (u1 → :u1a-0000-4000-8000-:u1b). */
  fresh: Map<string, string>;
  /** Values the database made → the variable pgbench reads them into (\aset r<call>_ of that call). */
  bound: Map<string, string>;
  /** Calls whose results pgbench keeps (\aset r<call>_). */
  asetCalls: Set<number>;
  /** Prepared statement texts → PREPARE name. */
  prepared: Map<string, string>;
  /** The stock statement and where its quantities come from. */
  stock?: {
    call: number;
    /** Per line: the branch quantity before and the batch quantity before (pgbench expressions), the delta. */
    lines: { before: string; batchBefore: string; delta: number }[];
    /** The call after which the extra one-row SELECT of the locked rows goes (several lines). */
    extraAfter?: number;
  };
}

/** Reads a captured request: what is fixed, what pgbench makes fresh, what it reads back from the database. */
function plan(kind: Kind, sentCalls: Call[], env: BenchEnv, catalogue: readonly CatalogueItem[], lines: readonly CatalogueItem[]): Plan {
  // The app sends BEGIN as a message of its own, the scope (and the key's claim) right behind it in the same round
  // trip (decision 0086): the replay sends them as one compound command, the same statements in the same order.
  const captured = sentCalls.flatMap((c, i) => {
    const next = sentCalls[i + 1];
    if (c.text === 'BEGIN' && next && next.client === c.client && next.text.startsWith('SELECT set_config(')) return [];
    const before = sentCalls[i - 1];
    if (before?.text === 'BEGIN' && before.client === c.client && c.text.startsWith('SELECT set_config(')) return [{ ...c, text: `BEGIN; ${c.text}` }];
    return [c];
  });
  // The request's transaction (its connection's calls from BEGIN to COMMIT) and the relay's NOTIFY after it; other
  // calls in the window (the job runner's poll, on its own timer) are not the request's.
  const first = captured.findIndex((c) => c.text.startsWith('BEGIN;'));
  const last = captured.findIndex((c, i) => i > first && c.client === captured[first]?.client && !c.values && /(^|;\s*)COMMIT$/.test(c.text.trim()));
  if (first < 0 || last < 0) throw new Error(`${kind}: no BEGIN ... COMMIT among the captured calls`);
  const calls = captured.filter((c, i) => (i >= first && i <= last && c.client === captured[first]!.client) || (i > last && c.text.includes('pg_notify')));
  for (const c of captured) if (!calls.includes(c)) console.log(`${kind}: not the request's, left out: ${c.text.replace(/\s+/g, ' ').slice(0, 100)}`);
  const begin = 0;
  const commit = calls.findIndex((c) => c === captured[last]);
  const known = new Set<string>([env.pharmacyId, env.ownerId, ...env.branches.flatMap((b) => [b.id, b.name]), 'Bench Owner', 'owner@bench.test']);
  for (const item of catalogue) for (const value of [item.id, item.batchId, item.name, item.sku, item.batchNumber]) known.add(value);
  const fresh = new Map<string, string>();
  const candidates = new Map<string, { call: number; column: string }>();
  const sent: string[] = [];
  for (const [i, call] of calls.entries()) {
    const text = sentText(call);
    sent.push(text);
    for (const uuid of text.match(UUID) ?? []) if (!known.has(uuid) && !fresh.has(uuid) && !candidates.has(uuid)) fresh.set(uuid, `u${fresh.size + 1}`);
    for (const [column, value] of Object.entries(call.rows?.[0] ?? {})) {
      if (typeof value !== 'string' || !SAFE_VALUE.test(value) || known.has(value) || fresh.has(value) || candidates.has(value)) continue;
      if (sent.some((s) => s.includes(value))) continue;
      candidates.set(value, { call: i, column });
    }
  }
  const bound = new Map<string, string>();
  const asetCalls = new Set<number>();
  for (const [value, { call, column }] of candidates) {
    if (!sent.slice(call + 1).some((s) => s.includes(value))) continue;
    if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`${kind}: a result column pgbench cannot name: ${column}`);
    bound.set(value, `r${call}_${column}`);
    asetCalls.add(call);
  }
  const prepared = new Map<string, string>();
  for (const call of calls.slice(begin, commit + 1)) if (call.name && call.values && !prepared.has(call.text)) prepared.set(call.text, `c${prepared.size + 1}`);

  const result: Plan = { kind, calls, begin, commit, fresh, bound, asetCalls, prepared };
  const stockCall = calls.findIndex((c) => c.text.includes('INSERT INTO stock_movements'));
  if (stockCall >= 0) {
    // The stock statement of the ledger (stock repository): $6/$7 branch products and their new quantities, $12/$13
    // the movements' products and batches, $15 their deltas, $16 the branch quantity after, $17 the batch's after.
    const stock = calls[stockCall]!;
    const shape = [/unnest\(\$5::uuid\[\], \$6::uuid\[\], \$7::int\[\], \$8::int\[\]/, /unnest\(\$11::uuid\[\], \$12::uuid\[\], \$13::uuid\[\], \$14::text\[\], \$15::int\[\], \$16::int\[\], \$17::int\[\]/, /m\.delta, m\.after, m\.batch_after/];
    if (!shape.every((re) => re.test(stock.text)) || !stock.values) throw new Error(`${kind}: the stock statement changed; bench/write-ceiling.ts reads its parameters by position`);
    const v = stock.values as unknown[][];
    if (!(v[3] as number[]).every((dr) => dr === 0)) throw new Error(`${kind}: a reserved-stock change; not replayed`);
    const lock = calls.findIndex((c) => c.text.includes('FROM branch_products bp') && c.text.includes('FOR UPDATE'));
    const batchRead = calls.findIndex((c) => /FROM batches b WHERE b\.pharmacy_id = \$1 AND b\.branch_id = k\.branch_id/.test(c.text));
    if (lock < 0 || batchRead < 0 || !calls[lock]!.rows || !calls[batchRead]!.rows) throw new Error(`${kind}: no locking read of the branch stock or of the batches before the stock statement`);
    const perLine = lines.map((item, j) => {
      const m = (v[11] as string[]).indexOf(item.id);
      if (m < 0) throw new Error(`${kind}: product ${item.id} has no movement`);
      const delta = (v[14] as number[])[m]!;
      const row = calls[lock]!.rows!.find((r) => r.product_id === item.id);
      const batchRow = calls[batchRead]!.rows!.find((r) => r.id === item.batchId);
      if (!row || !batchRow) throw new Error(`${kind}: product ${item.id} was not read`);
      if ((v[15] as number[])[m] !== Number(row.quantity) + delta || (v[16] as number[])[m] !== Number(batchRow.quantity) + delta) {
        throw new Error(`${kind}: the quantities after are not the rows read plus the delta`);
      }
      if (lines.length === 1) {
        asetCalls.add(lock);
        asetCalls.add(batchRead);
        return { before: `:r${lock}_quantity`, batchBefore: `:r${batchRead}_quantity`, delta };
      }
      return { before: `:q_q${j + 1}`, batchBefore: `:q_b${j + 1}`, delta };
    });
    result.stock = { call: stockCall, lines: perLine, ...(lines.length > 1 ? { extraAfter: batchRead } : {}) };
  }
  return result;
}

/** The extra one-row read of the locked rows for several lines (pgbench keeps only a result's first row). */
function extraQuantityStatement(lineCount: number): string {
  const parts: string[] = [];
  for (let j = 0; j < lineCount; j += 1) {
    parts.push(`(SELECT x.quantity FROM branch_products x WHERE x.pharmacy_id = $1 AND x.branch_id = $2 AND x.product_id = $${3 + 2 * j}) AS q${j + 1}`);
    parts.push(`(SELECT x.quantity FROM batches x WHERE x.pharmacy_id = $1 AND x.id = $${4 + 2 * j}) AS b${j + 1}`);
  }
  return `SELECT ${parts.join(', ')}`;
}

/**
 * The pgbench script of a plan for one choice of products (`variant`, the same length as the captured lines).
 * rls=false: the BEGIN message without set_config('role', ...): the owner, to whom row-level security does not apply.
 */
function script(p: Plan, env: BenchEnv, lines: readonly CatalogueItem[], variant: readonly CatalogueItem[], rls: boolean, notify = true): string {
  const replace = new Map<string, string>();
  lines.forEach((item, j) => {
    const to = variant[j]!;
    replace.set(item.id, to.id);
    replace.set(item.batchId, to.batchId);
    replace.set(item.name, to.name);
    replace.set(item.sku, to.sku);
    replace.set(item.batchNumber, to.batchNumber);
  });
  for (const [uuid, stem] of p.fresh) replace.set(uuid, `:${stem}a-0000-4000-8000-:${stem}b`);
  for (const [value, variable] of p.bound) replace.set(value, `:${variable}`);
  const keys = [...replace.keys()].sort((a, b) => b.length - a.length).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?:${keys.join('|')})(?![0-9])`, 'g');
  const substitute = (text: string) => (keys.length ? text.replace(pattern, (m) => replace.get(m)!) : text);
  const simple = (text: string) => substitute(text).replace(/'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))'/g, 'now()');
  const compound = (text: string) => splitStatements(text).map(simple).join(' \\;\n');
  const param = (value: unknown) => {
    if (isTimestamp(value)) return 'now()';
    if (Array.isArray(value) && value.length > 0 && value.every(isTimestamp)) return `ARRAY[${value.map(() => 'now()').join(', ')}]`;
    return substitute(parameterLiteral(value));
  };

  const out: string[] = [`-- ${p.kind}: the app's SQL for one request (bench/write-ceiling.ts)${rls ? '' : ', as the owner (no row-level security)'}`];
  for (const stem of p.fresh.values()) out.push(`\\set ${stem}a random(10000000, 99999999)`, `\\set ${stem}b random(100000000000, 999999999999)`);
  for (const [i, call] of p.calls.entries()) {
    if (i > p.commit && !notify) continue;
    const aset = p.asetCalls.has(i) ? ` \\aset r${i}_` : ';';
    if (i === p.begin) {
      let text = call.text;
      if (!rls) {
        text = text.replace(/set_config\('role', '[a-z_]+', true\), /, '');
        if (text === call.text) throw new Error(`${p.kind}: the BEGIN message sets no role`);
      }
      out.push(compound(text) + aset);
      // The app's named statements: prepared once per connection, in its first transaction, as the app role.
      out.push('\\if :prepared = 0');
      for (const [text, name] of p.prepared) out.push(`PREPARE ${name} AS ${text};`);
      if (p.stock?.extraAfter !== undefined) out.push(`PREPARE cq AS ${extraQuantityStatement(p.stock.lines.length)};`);
      out.push('\\set prepared 1', '\\endif');
      continue;
    }
    if (i === p.stock?.call) {
      const { lines: stockLines } = p.stock;
      stockLines.forEach((line, j) => {
        out.push(`\\set qa${j + 1} ${line.before} ${line.delta < 0 ? '-' : '+'} ${Math.abs(line.delta)}`);
        out.push(`\\set ba${j + 1} ${line.batchBefore} ${line.delta < 0 ? '-' : '+'} ${Math.abs(line.delta)}`);
      });
      const values = call.values as unknown[][];
      const lineOf = (productId: unknown) => lines.findIndex((item) => item.id === productId) + 1;
      const arrayOf = (products: unknown[], prefix: string) => `'{${products.map((id) => `:${prefix}${lineOf(id)}`).join(',')}}'`;
      const params = values.map((value, k) => (k === 6 ? arrayOf(values[5]!, 'qa') : k === 15 ? arrayOf(values[11]!, 'qa') : k === 16 ? arrayOf(values[11]!, 'ba') : param(value)));
      out.push(`EXECUTE ${p.prepared.get(call.text)}(${params.join(', ')})${aset}`);
      continue;
    }
    if (call.name && call.values && i > p.begin && i <= p.commit) {
      const execute = `EXECUTE ${p.prepared.get(call.text)}(${call.values.map(param).join(', ')})`;
      if (i === p.stock?.extraAfter) {
        const args = [`'${env.pharmacyId}'`, `'${env.branches[0]!.id}'`, ...variant.flatMap((item) => [`'${item.id}'`, `'${item.batchId}'`])];
        out.push(`${execute} \\;\nEXECUTE cq(${args.join(', ')}) \\gset q_`);
      } else out.push(execute + aset);
      continue;
    }
    // Unnamed: a text with parameters (node-postgres parses it each time: inlined, parsed each time here too) or a
    // simple-protocol text of one or more statements.
    const text = call.values ? inlineParameters(call.text, call.values) : call.text;
    out.push(compound(text) + aset);
  }
  return out.join('\n') + '\n';
}

// ------------------------------------------------------------------------------------------------ checks

const MAIN_TABLE: Record<Kind, string> = { adjustment: 'stock_adjustments', product: 'products', sale: 'sales' };

async function counts(env: BenchEnv): Promise<Record<string, number>> {
  const [row] = await env.db.owner.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM stock_adjustments) AS stock_adjustments, (SELECT count(*)::int FROM products) AS products,
            (SELECT count(*)::int FROM sales) AS sales, (SELECT count(*)::int FROM sale_items) AS sale_items,
            (SELECT count(*)::int FROM idempotency_keys WHERE status_code = 201) AS keys`,
  );
  return row!;
}

/** Branch stock = ledger and = its batches for every product; one row of the kind (and its key) per transaction. */
async function check(env: BenchEnv, kind: Kind, before: Record<string, number>, transactions: number, inFlight = 0): Promise<string> {
  const after = await counts(env);
  const [ledger] = await env.db.owner.query<{ ledger: number; batches: number }>(
    `SELECT count(*) FILTER (WHERE bp.quantity + bp.reserved_quantity <> (SELECT coalesce(sum(m.delta), 0) FROM stock_movements m
                                WHERE m.pharmacy_id = bp.pharmacy_id AND m.branch_id = bp.branch_id AND m.product_id = bp.product_id))::int AS ledger,
            count(*) FILTER (WHERE bp.quantity <> (SELECT coalesce(sum(b.quantity), 0) FROM batches b
                                WHERE b.pharmacy_id = bp.pharmacy_id AND b.branch_id = bp.branch_id AND b.product_id = bp.product_id))::int AS batches
       FROM branch_products bp WHERE bp.pharmacy_id = $1`,
    [env.pharmacyId],
  );
  const made = after[MAIN_TABLE[kind]]! - before[MAIN_TABLE[kind]]!;
  const keys = after.keys! - before.keys!;
  const items = kind === 'sale' ? after.sale_items! - before.sale_items! : undefined;
  // Over HTTP, the requests in flight when autocannon stops are not counted by it but are made (up to one a connection).
  const counted = (n: number) => n >= transactions && n <= transactions + inFlight;
  const ok = ledger!.ledger === 0 && ledger!.batches === 0 && counted(made) && counted(keys) && (items === undefined || items === SALE_LINES * made);
  return `${ok ? 'ok' : 'NOT CONSISTENT'}: ${made} ${MAIN_TABLE[kind]}${items === undefined ? '' : ` (${items} lines)`}, ${keys} keys for ${transactions} ${inFlight ? 'answers 201' : 'transactions'}; stock ≠ ledger ${ledger!.ledger}, ≠ batches ${ledger!.batches}`;
}

/** Tables whose rows changed since `before` (pg_stat_user_tables; the backends report when they end). */
async function tupleCounts(env: BenchEnv): Promise<Map<string, number>> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rows = await env.db.owner.query<{ relname: string; n: string }>(`SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::text AS n FROM pg_stat_user_tables`);
  return new Map(rows.map((r) => [r.relname, Number(r.n)]));
}

// ------------------------------------------------------------------------------------------------ run

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
console.log(`\nMachine: ${machine()}`);
console.log(`Load at start (uptime): ${uptime()}`);
console.log(`${DURATION} s per measurement, ${CLIENTS} clients; ${PRODUCTS} products, ${VARIANTS} scripts of each kind; history ${HISTORY}; pgbench scale ${SCALE}\n`);

interface Row extends Partial<ReplayFigures> {
  label: string;
  clients: number;
  perSecond: number;
  p50: number;
  p99: number;
  machineCpu: number;
  note?: string;
}

const env = await benchEnv('postgres');
const scratch = await pgbenchDatabase(SCALE);
const rows: Row[] = [];
let scratchClient: pg.Client | undefined;
try {
  const catalogue = await importCatalogue(env);
  const database = (await env.db.owner.query<{ db: string }>('SELECT current_database() AS db'))[0]!.db;
  const random = () => catalogue[Math.floor(Math.random() * catalogue.length)]!;
  const pick = (n: number) => {
    const picked = new Map<string, CatalogueItem>();
    while (picked.size < n) {
      const item = random();
      picked.set(item.id, item);
    }
    return [...picked.values()];
  };
  const lineCount: Record<Kind, number> = { adjustment: 1, product: 0, sale: SALE_LINES };
  const scripts = new Map<Kind, Record<'rls' | 'owner' | 'quiet', string[]>>();
  for (const kind of KINDS) {
    const lines = pick(lineCount[kind]);
    const calls = await capture(env, kind, lines);
    const p = plan(kind, calls, env, catalogue, lines);
    const variants = lineCount[kind] === 0 ? [[]] : Array.from({ length: VARIANTS }, () => pick(lineCount[kind]));
    scripts.set(kind, {
      rls: variants.map((v) => script(p, env, lines, v, true)),
      owner: variants.map((v) => script(p, env, lines, v, false)),
      quiet: variants.map((v) => script(p, env, lines, v, true, false)),
    });
    console.log(
      `${kind}: ${calls.length} calls captured (${p.commit - p.begin + 1} in the transaction, ${p.prepared.size} named statements); fresh per transaction: ${p.fresh.size} UUIDs; read back: ${[...p.bound.values()].join(', ') || 'none'}${p.stock?.extraAfter !== undefined ? '; one extra one-row SELECT of the locked quantities' : ''}`,
    );
    if (process.env.BENCH_PRINT_SCRIPT) console.log(`\n${scripts.get(kind)!.rls[0]}`);
  }
  const defines = { prepared: 0 };
  const replay = async (kind: Kind, label: string, which: 'rls' | 'owner' | 'quiet', seconds?: number): Promise<ReplayFigures & { note: string }> => {
    const before = await counts(env);
    const figures = await runScripts({
      database,
      label,
      clients: CLIENTS,
      ...(seconds === undefined ? { perClient: Math.ceil(HISTORY / CLIENTS) } : { seconds }),
      scripts: scripts.get(kind)![which],
      defines,
      owner: env.db.owner,
    });
    return { ...figures, note: await check(env, kind, before, figures.transactions) };
  };

  /** The same request over HTTP to the app on the same database (autocannon in this process, as the other benches). */
  const http = async (kind: Kind): Promise<Row> => {
    const before = await counts(env);
    const cpu = await startCpu(env.db.owner);
    const background = await startBackgroundCpu(env.db.owner);
    const result = await new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url: `${env.url}${PATHS[kind]}`,
          connections: CLIENTS,
          duration: DURATION,
          requests: [
            {
              method: 'POST',
              setupRequest: (req) => ({
                ...req,
                headers: { ...env.headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                body: JSON.stringify(request(kind, pick(lineCount[kind])).body),
              }),
            },
          ],
        },
        (error, r) => (error ? reject(error) : resolve(r)),
      ),
    );
    const used = await cpu.finish(result.requests.total);
    const backgroundCpu = background.finish() / result.requests.total;
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the requests still in flight end
    const note = await check(env, kind, before, result['2xx'], CLIENTS);
    return {
      label: `(h) ${kind}: POST ${PATHS[kind]} over HTTP (Node, the app)`,
      clients: CLIENTS,
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      machineCpu: used.machineCpu,
      postgresCpu: used.postgresCpu,
      backgroundCpu,
      clientCpu: used.nodeCpu,
      note: `${note}${result.non2xx + result.errors > 0 ? `; ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
    };
  };

  // The pharmacy's history (and a first check that each script runs), then the statistics of a running server.
  for (const kind of KINDS) {
    const history = await replay(kind, `history ${kind}`, 'rls');
    console.log(`history: ${history.transactions} ${kind} transactions, ${history.perSecond.toFixed(0)}/s; ${history.note}`);
  }
  const analyzed = await analyzeLikeARunningServer(env.db);
  console.log(`ANALYZE of ${analyzed.length} changed tables\n`);

  // TPC-B through the same runner, so its database's backends' CPU is measured as the replays' is.
  const scratchUrl = new URL(BENCH_PG_URL);
  scratchUrl.pathname = `/${scratch.name}`;
  scratchClient = new pg.Client({ connectionString: scratchUrl.toString() });
  await scratchClient.connect();
  const scratchOwner = { query: async <T>(sql: string, params?: readonly unknown[]) => (await scratchClient!.query(sql, params ? [...params] : undefined)).rows as T[] };
  const runTpcb = (label: string) =>
    runScripts({ database: scratch.name, label, clients: CLIENTS, seconds: DURATION, scripts: [tpcbScript()], defines: { scale: SCALE }, owner: scratchOwner });
  const tpcb: ReplayFigures[] = [await runTpcb('pgbench TPC-B (tpcb-like), same server')];
  rows.push(tpcb[0]!);
  const written = new Set<string>();
  for (const kind of KINDS) {
    const before = await tupleCounts(env);
    rows.push(await replay(kind, `(a) ${kind}: the app's SQL as is (app role, row-level security)`, 'rls', DURATION));
    const after = await tupleCounts(env);
    const tables = [...after].filter(([name, n]) => n > (before.get(name) ?? 0)).map(([name]) => name);
    console.log(`${kind} writes: ${tables.sort().join(', ')}`);
    for (const t of tables) written.add(t);
  }
  if (process.env.BENCH_HTTP !== '0') for (const kind of KINDS) rows.push(await http(kind));
  for (const kind of KINDS) rows.push(await replay(kind, `(a2) ${kind}: (a) without the relay's NOTIFY after COMMIT`, 'quiet', DURATION));
  for (const kind of KINDS) rows.push(await replay(kind, `(c) ${kind}: as the owner (no row-level security)`, 'owner', DURATION));
  // (b): the foreign keys from and to the written tables dropped (this database is a scratch copy, dropped at the end).
  const dropped = await env.db.owner.query<{ table: string; name: string }>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS name FROM pg_constraint c
      WHERE c.contype = 'f' AND (c.conrelid::regclass::text = ANY($1) OR c.confrelid::regclass::text = ANY($1))`,
    [[...written]],
  );
  for (const fk of dropped) await env.db.owner.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT "${fk.name}"`);
  console.log(`(b): ${dropped.length} foreign keys dropped from and to ${written.size} written tables`);
  for (const kind of KINDS) rows.push(await replay(kind, `(b) ${kind}: (a) without the foreign keys of the written tables`, 'rls', DURATION));
  tpcb.push(await runTpcb('pgbench TPC-B (tpcb-like), same server, again'));
  rows.push(tpcb[1]!);

  const tps = (tpcb[0]!.perSecond + tpcb[1]!.perSecond) / 2;
  const mean = (f: (r: ReplayFigures) => number) => (f(tpcb[0]!) + f(tpcb[1]!)) / 2;
  const own = (r: Row) => (r.postgresCpu ?? NaN) + (r.backgroundCpu ?? NaN) + (r.clientCpu ?? NaN);
  const tpcbOwn = mean((r) => own(r));
  const tpcbBackends = mean((r) => r.postgresCpu);
  console.log(
    `\nTPC-B (mean of its two runs): ${tps.toFixed(0)} tps; a transaction: ${mean((r) => r.machineCpu).toFixed(3)} ms machine CPU, ${tpcbBackends.toFixed(3)} ms its backends, ${tpcbOwn.toFixed(3)} ms own CPU (backends + WAL writer, checkpointer, background writer + pgbench)\n`,
  );
  console.log(
    '| measurement | clients | transactions/s | latency p50 ms | latency p99 ms | ratio to TPC-B | machine CPU ms each | backends CPU ms each | background writers ms each | client ms each (pgbench or Node) | own CPU ms each | own-CPU ratio (TPC-B ÷ this) | backends ratio (TPC-B ÷ this) | check |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(2));
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${row.clients} | ${row.perSecond.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${(row.perSecond / tps).toFixed(3)} | ${ms(row.machineCpu)} | ${ms(row.postgresCpu)} | ${ms(row.backgroundCpu)} | ${ms(row.clientCpu)} | ${ms(own(row))} | ${(tpcbOwn / own(row)).toFixed(3)} | ${row.postgresCpu ? (tpcbBackends / row.postgresCpu).toFixed(3) : ''} | ${row.note ?? ''} |`,
    );
  }
  console.log(`\nLoad at end (uptime): ${uptime()}`);
} finally {
  await scratchClient?.end();
  await scratch.drop();
  await env.close();
}
