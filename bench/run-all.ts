// Runs the named benchmark (or all of them) one after the other; each prints its own figures.
// Every bench/*.ts is one: api-me, bundle-size, csv-import, products-search, write-path (PostgreSQL and pgbench).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts')
  .filter((f) => !wanted || f.startsWith(wanted));
for (const file of files) {
  console.log(`\n## ${file}`);
  const result = spawnSync('npx', ['tsx', path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
