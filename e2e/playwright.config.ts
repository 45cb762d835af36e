import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;

/**
 * The browser suite runs against the real server (built web app, PGlite in a fresh directory, seeded data).
 * `npm run test:e2e` builds the web app first; the server serves apps/web/dist.
 */
export default defineConfig({
  testDir: 'tests',
  // One output folder per port, so two suites on one machine never delete each other's artifacts.
  outputDir: `test-results-${PORT}`,
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    // A trace is recorded only when a failed test is run again (CI retries once): recording one for every test
    // (DOM snapshots and a screencast at every step) cost CPU on the two cores the whole suite shares.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command:
      `rm -rf /tmp/pp-e2e-data-${PORT} && DATA_DIR=/tmp/pp-e2e-data-${PORT} PGLITE_FSYNC=off PORT=${PORT} PUBLIC_URL=${BASE_URL} SESSION_LOCK_MINUTES=15 npx tsx apps/server/src/main.ts`,
    cwd: repoRoot,
    url: `${BASE_URL}/api/openapi.json`,
    reuseExistingServer: false,
    // The first start runs initdb, the migrations and the seed: about 20 s alone, over two minutes on a machine at load 40.
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
