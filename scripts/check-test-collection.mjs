#!/usr/bin/env node
/* global process, console, URL */
// Collects (loads, never runs) every server test file WITHOUT a PostgreSQL server, as on a fresh clone, and fails
// loudly when a file has no test at all (vitest's 'No test suite found': a PostgreSQL-only `describe.each` over an
// empty list) or does not load. A PostgreSQL-only test must be skipped visibly (describe.skipIf) so that `npm test`
// passes without TEST_DATABASE_URL. Takes seconds: the files are imported, no database is opened, no test runs.
import path from 'node:path';
import { createVitest } from 'vitest/node';

delete process.env.TEST_DATABASE_URL;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const projects = process.argv.slice(2).length ? process.argv.slice(2) : ['server', 'server-isolated'];

const vitest = await createVitest('test', { root, watch: false, run: true, project: projects, reporters: [] });
const problems = [];
let files = 0;
let tests = 0;
try {
  const { testModules, unhandledErrors } = await vitest.collect();
  for (const error of unhandledErrors) problems.push(`unhandled error while collecting: ${error?.message ?? error}`);
  for (const module of testModules) {
    files += 1;
    const name = path.relative(root, module.moduleId);
    for (const error of module.errors()) problems.push(`${name}: ${error.message}`);
    const count = [...module.children.allTests()].length;
    tests += count;
    if (count === 0) problems.push(`${name}: no test collected without TEST_DATABASE_URL (use describe.skipIf for a PostgreSQL-only suite)`);
  }
  if (files === 0) problems.push(`no test file found in the projects ${projects.join(', ')}`);
} finally {
  await vitest.close();
}
if (problems.length) {
  console.error(`Test collection without TEST_DATABASE_URL failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Test collection without TEST_DATABASE_URL: ${files} files, ${tests} tests (skipped ones included), all load.`);
