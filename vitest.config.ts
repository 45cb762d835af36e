import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

/** Server test files that change module state (payments.test.ts and till-mpesa.test.ts: setReconcileTiming, the K2 health cache). */
const SERVER_ISOLATED = ['apps/server/test/payments.test.ts', 'apps/server/test/till-mpesa.test.ts'];

/**
 * The server files that take longest (seconds of wall alone, both databases; docs/benchmarks.md 'Test suite time'),
 * started first so that the two workers end together: vitest orders a clean clone's files by size (it has no
 * durations from an earlier run), and a long file that starts last runs alone while the other worker idles.
 */
const LONG_FIRST = [
  'import-runs',
  'bad-input',
  'sales-returns',
  'tenant-isolation',
  'ledger-property',
  'suspended-sales',
  'auth-security',
  'maintenance',
  'start',
  'suspended-sales-concurrency',
  'sales-concurrency',
  'purchases',
  'session-cache',
  'jobs',
  'durability',
  'auth',
  'payments',
].map((name) => `apps/server/test/${name}.test.ts`);

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? LONG_FIRST.length : index;
    };
    // Stable: within a project, the listed files first in the listed order, then vitest's own order.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => (a.file.project.name === b.file.project.name ? rank(a.file) - rank(b.file) : 0) || a.index - b.index)
      .map(({ file }) => file);
  }
}

const server = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  // Migrates one PGlite and (with TEST_DATABASE_URL) one template database per run, shared by the two server projects;
  // every test database starts from them (apps/server/test/database.ts).
  globalSetup: ['apps/server/test/global-setup.ts'],
} as const;

// One runner for the whole repository. Server tests run against PGlite by default and against the
// PostgreSQL server too when TEST_DATABASE_URL is set (see apps/server/test/database.ts).
export default defineConfig({
  test: {
    // Two test files at a time. vitest's default is one fewer than the cores, so ONE on a 2-core machine, and that
    // core then idles whenever a test waits for the PostgreSQL server, a child process or a timer: six server files
    // on both databases took 277 s with one worker and 145 s with two, for the same CPU time (80 s and 74 s;
    // docs/benchmarks.md, 'CI time, second pass').
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      // Pure functions (the domain's, and the web's .test.ts without a DOM): no module state to keep apart, so one
      // module graph per worker here too.
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], isolate: false } },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERVER_ISOLATED],
          ...server,
          // A worker runs its test files one after the other in one module graph: the server's modules, fastify,
          // zod schemas and PGlite's WebAssembly are loaded once per worker, not once per file. Each file still
          // builds its own app on its own database (apps/server/test/app.ts). Eight server files (66 tests, both
          // databases) took 116 s of CPU isolated and 74 s shared (docs/benchmarks.md, 'CI time, fifth pass').
          // A file that changes a module's state for itself (a test hook such as setReconcileTiming) belongs in
          // SERVER_ISOLATED.
          isolate: false,
        },
      },
      { test: { name: 'server-isolated', include: SERVER_ISOLATED, ...server } },
      {
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], isolate: false },
      },
      {
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: {
          name: 'web-components',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          testTimeout: 30_000,
          // One module graph per worker (React, Radix, i18next, MSW and the app's modules loaded once, not once per
          // file): the 34 files took 75 s of CPU isolated and 22 s shared (docs/benchmarks.md, 'Test suite time').
          // Each test still renders into a clean DOM (setup.ts: cleanup(), the session hint) and each file starts
          // and stops the MSW server; a file that changes module state for itself must undo it (catalogue-store
          // unstubs fetch and restores the address).
          isolate: false,
        },
      },
    ],
  },
});
