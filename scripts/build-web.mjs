#!/usr/bin/env node
/* global process, console */
// Builds the web app (apps/web/dist) only when what goes into it changed since the last build (issue 8 item 1):
// a SHA-256 of the web app's sources, the domain package it imports, the user manual it shows and the lockfile is
// kept in apps/web/dist/.build-hash; `npm start` skips the 10-30 s build when it matches. `--force` builds anyway.
// Plain JavaScript so that it runs without a compiler before anything else; scripts/start.mjs imports ensureWebBuilt.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash } from './source-hash.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const STAMP = path.join(DIST, '.build-hash');

/** What the build reads: directories walked (node_modules and dist left out) and single files. */
const INPUTS = ['apps/web', 'packages/domain', 'docs/user-manual.md', 'package-lock.json', 'tsconfig.base.json'];
const SKIP = new Set(['node_modules', 'dist', '.vite']);

/** The hash of every input file's path and bytes, in a stable order (node_modules, dist and .vite left out). */
const hashSources = () =>
  sourceHash(ROOT, INPUTS, { include: (full) => !path.relative(ROOT, full).split(path.sep).some((part) => SKIP.has(part)) });

/**
 * Builds apps/web/dist unless it was built from these very sources (or `force`). Returns false when the build failed
 * (vite printed why).
 */
export function ensureWebBuilt({ force = false } = {}) {
  const started = Date.now();
  const hash = hashSources();
  const built = existsSync(path.join(DIST, 'index.html')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash;
  if (built && !force) {
    console.log(`Web app up to date (apps/web/dist, sources unchanged; checked in ${Date.now() - started} ms).`);
    return true;
  }
  console.log(existsSync(path.join(DIST, 'index.html')) ? 'Web app sources changed: building apps/web/dist ...' : 'Building the web app (apps/web/dist) ...');
  const result = spawnSync('npm', ['run', 'build', '-w', '@pharmapoint/web', '--', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) return false;
  console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  writeFileSync(STAMP, `${hash}\n`);
  return true;
}

// Run as a script (`npm run build`, e2e, benches): build, exit 1 when the build failed.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!ensureWebBuilt({ force: process.argv.includes('--force') })) process.exit(1);
}
