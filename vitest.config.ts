import { defineConfig } from 'vitest/config';

// One runner for the whole repository. Server tests run against PGlite by default and against the
// PostgreSQL server too when TEST_DATABASE_URL is set (see apps/server/test/database.ts).
export default defineConfig({
  test: {
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
