import { defineConfig } from 'vitest/config';

// One runner for the whole repository. Server tests run against PGlite by default and against the
// PostgreSQL server too when TEST_DATABASE_URL is set (see apps/server/test/database.ts).
export default defineConfig({
  test: {
    // Two test files at a time. vitest's default is one fewer than the cores, so ONE on a 2-core machine, and that
    // core then idles whenever a test waits for the PostgreSQL server, a child process or a timer: six server files
    // on both databases took 277 s with one worker and 145 s with two, for the same CPU time (80 s and 74 s;
    // docs/benchmarks.md, 'CI time, second pass').
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Migrates one PGlite and (with TEST_DATABASE_URL) one template database per run; every test database
          // starts from them (apps/server/test/database.ts).
          globalSetup: ['apps/server/test/global-setup.ts'],
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'] } },
      {
        resolve: { alias: { '@': new URL('./apps/web/src', import.meta.url).pathname } },
        test: { name: 'web-components', include: ['apps/web/src/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['apps/web/src/test/setup.ts'], testTimeout: 30_000 },
      },
    ],
  },
});
