// Benchmark: the first load of the web app in Chromium throttled like a cheap phone on a weak signal (issue 8 item 12):
// DevTools network emulation 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, and CPU slowed 4×.
//   - sign-in page ready: from navigating to /login (empty cache) until the Email field can be typed in;
//   - dashboard usable: from pressing Sign In until the greeting and every branch's stock chart are shown;
//   - dashboard again: a new tab of the same browser (HTTP cache warm) until the dashboard is usable.
// Each run is done twice: as browsers send Accept-Encoding (brotli), and with Accept-Encoding: identity, so the
// saving of compression shows in the same run. Prints a markdown table; never passes or fails on time.
// Needs the built web app (`npm run build`); starts the server itself on BENCH_PORT (3202) with a fresh PGlite.
// Run: npx tsx bench/throttled-first-load.ts   (BENCH_RUNS=3, BENCH_PORT=3202)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 3202);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BASE = `http://127.0.0.1:${PORT}`;
const EMAIL = 'owner@afyabora.test';
const PASSWORD = 'Pharma#2026';

/** Chrome DevTools' throttling, as the issue measured it. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: BASE, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('the server did not answer /health within 3 minutes');
}

/** A page with the throttling applied (DevTools protocol), and the bytes it received. */
async function throttledPage(context: BrowserContext, identity: boolean): Promise<{ page: Page; bytes: () => number }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  let received = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    received += event.encodedDataLength;
  });
  return { page, bytes: () => received };
}

async function dashboardUsable(page: Page): Promise<void> {
  await page.getByRole('heading', { name: /Good (morning|afternoon|evening)/ }).waitFor({ timeout: 120_000 });
  // The stock health of each branch: one chart per branch once GET /api/stock/branch-summary has answered.
  await page.getByRole('img', { name: /Main Branch/ }).first().waitFor({ timeout: 120_000 });
}

interface Figures {
  loginMs: number;
  loginKiB: number;
  dashboardMs: number;
  dashboardKiB: number;
  againMs: number;
  againKiB: number;
}

async function oneRun(browser: Browser, identity: boolean): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const { page, bytes } = await throttledPage(context, identity);
    let started = Date.now();
    await page.goto(`${BASE}/login`, { waitUntil: 'commit', timeout: 120_000 });
    const email = page.getByLabel('Email');
    await email.waitFor({ timeout: 120_000 });
    await email.fill(EMAIL);
    const loginMs = Date.now() - started;
    const loginBytes = bytes();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    started = Date.now();
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await dashboardUsable(page);
    const dashboardMs = Date.now() - started;
    const dashboardBytes = bytes() - loginBytes;

    const again = await throttledPage(context, identity);
    started = Date.now();
    await again.page.goto(`${BASE}/app/dashboard`, { waitUntil: 'commit', timeout: 120_000 });
    await dashboardUsable(again.page);
    const againMs = Date.now() - started;
    return {
      loginMs,
      loginKiB: loginBytes / 1024,
      dashboardMs,
      dashboardKiB: dashboardBytes / 1024,
      againMs,
      againKiB: again.bytes() / 1024,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) throw new Error('Build the web app first: npm run build');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-throttled-'));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    console.log(`Chromium ${browser.version()}, network 150 ms RTT / 1.6 Mbit/s down, CPU ${CPU_SLOWDOWN}× slower; median of ${RUNS} runs (each a fresh browser profile)`);
    console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
    console.log('| encoding | sign-in page ready s | KiB received | dashboard usable after sign-in s | KiB received | dashboard again (warm cache) s | KiB received |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const identity of [false, true]) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, identity));
      const m = (key: keyof Figures) => median(runs.map((r) => r[key]));
      const s = (ms: number) => (ms / 1000).toFixed(1);
      console.log(
        `| ${identity ? 'identity (uncompressed)' : 'br (as browsers ask)'} | ${s(m('loginMs'))} | ${m('loginKiB').toFixed(0)} | ${s(m('dashboardMs'))} | ${m('dashboardKiB').toFixed(0)} | ${s(m('againMs'))} | ${m('againKiB').toFixed(0)} |`,
      );
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
