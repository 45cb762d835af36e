// Photographs the product for the landing page (issue 11 item 1; docs/decisions/0057): the till with a cart, the
// products list, the expiry report and the dashboard, signed in as the seeded owner of the demo pharmacy (its
// catalogue of Kenyan medicines), in Chromium through Playwright, against the real server and the built web app.
// Each picture is written as WebP at two widths (1280 and 640 px, for srcset) under apps/web/public/screenshots/.
//
// Run: node scripts/build-web.mjs && npx tsx scripts/screenshots.ts
// By default it starts its own server (a fresh embedded database in /tmp, seeded) on SCREENSHOT_PORT (3161), so the
// sales it rings up touch nothing else; BASE_URL=http://localhost:3000 photographs a server already running instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'apps/web/public/screenshots');
const PORT = Number(process.env.SCREENSHOT_PORT ?? 3161);
const BASE_URL = process.env.BASE_URL ?? `http://localhost:${PORT}`;
const OWNER = { email: 'owner@afyabora.test', password: 'Pharma#2026' };
/** The viewport photographed; the pictures are shown at most about 1280 px wide (and 640 on phones). */
const VIEWPORT = { width: 1280, height: 800 };
const WIDTHS = [1280, 640] as const;
/** WebP quality (0-1): screens are flat colour and text, which WebP keeps sharp at this size. */
const QUALITY = 0.82;

async function startServer(): Promise<ChildProcess | null> {
  if (process.env.BASE_URL) return null;
  const dataDir = `/tmp/pp-screenshots-data-${PORT}`;
  rmSync(dataDir, { recursive: true, force: true });
  const server = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PGLITE_FSYNC: 'off', PORT: String(PORT), PUBLIC_URL: BASE_URL, K2_SIMULATOR_PORT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE_URL}/api/openapi.json`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  stopServer(server);
  throw new Error(`The server did not start on ${BASE_URL} within 180 s`);
}

function stopServer(server: ChildProcess | null): void {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(/\/app\//);
}

/** Waits until no loading indicator is left and fonts and images are drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('[role="status"]').filter({ hasText: /Loading/i }).waitFor({ state: 'detached' }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

/** Encodes a PNG as WebP at the given width in the browser itself (canvas), so no image library is needed. */
async function toWebp(encoder: Page, png: Buffer, width: number): Promise<Buffer> {
  const base64 = await encoder.evaluate(
    async ({ data, width, quality }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const height = Math.round((bitmap.height * width) / bitmap.width);
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d')!;
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, width, height);
      const blob = await canvas.convertToBlob({ type: 'image/webp', quality });
      if (blob.type !== 'image/webp') throw new Error(`this browser wrote ${blob.type}, not WebP`);
      const buffer = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < buffer.length; i += 0x8000) binary += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
      return btoa(binary);
    },
    { data: png.toString('base64'), width, quality: QUALITY },
  );
  return Buffer.from(base64, 'base64');
}

async function save(encoder: Page, name: string, png: Buffer): Promise<void> {
  // SCREENSHOT_PNG_DIR keeps the full-size PNGs too, to look at them.
  if (process.env.SCREENSHOT_PNG_DIR) writeFileSync(path.join(process.env.SCREENSHOT_PNG_DIR, `${name}.png`), png);
  for (const width of WIDTHS) {
    const file = path.join(OUT, `${name}-${width}.webp`);
    writeFileSync(file, await toWebp(encoder, png, width));
    console.log(`${path.relative(ROOT, file)}: ${(statSync(file).size / 1024).toFixed(1)} KiB`);
  }
}

/** Rings up a cart on the till: each product found by name and added with Enter, as a cashier does. */
async function fillCart(page: Page, names: string[], quantities: Record<string, number>): Promise<void> {
  await page.goto('/pos');
  const search = page.getByRole('combobox', { name: 'Search products' });
  await search.waitFor();
  await page.locator('[data-catalogue="ready"]').waitFor();
  for (const name of names) {
    await search.fill(name);
    await page.getByRole('option', { name: new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first().waitFor();
    await search.press('Enter');
    await page.getByRole('row', { name: new RegExp(name.split(' ')[0]!) }).first().waitFor();
  }
  for (const [name, quantity] of Object.entries(quantities)) {
    const field = page.getByLabel(`Quantity of ${name}`);
    await field.fill(String(quantity));
    await field.press('Enter');
  }
  await search.fill('');
  // The 'added to cart' toasts fade after 3 s: the picture shows the till, not them.
  await page.waitForFunction(() => document.querySelectorAll('[data-sonner-toast]').length === 0, undefined, { timeout: 30_000 });
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: VIEWPORT, deviceScaleFactor: 1, locale: 'en-KE', timezoneId: 'Africa/Nairobi' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const encoder = await (await browser.newContext()).newPage();
    await signIn(page);

    await fillCart(page, ['Panadol Extra Tablets', 'Calpol Paediatric Suspension 100ml', 'Brufen 400mg Tablets', 'Ibuprofen 100mg/5ml Suspension 100ml'], {
      'Panadol Extra Tablets': 20,
      'Brufen 400mg Tablets': 10,
    });
    await settled(page);
    await save(encoder, 'till', await page.screenshot({ type: 'png' }));

    for (const [name, route] of [
      ['products', '/app/products'],
      ['expiry', '/app/reports/expiry'],
      ['dashboard', '/app/dashboard'],
    ] as const) {
      await page.goto(route);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await settled(page);
      await save(encoder, name, await page.screenshot({ type: 'png' }));
    }
  } catch (error) {
    const page = browser?.contexts()[0]?.pages()[0];
    if (page && process.env.SCREENSHOT_PNG_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_PNG_DIR, 'failure.png') });
    throw error;
  } finally {
    await browser?.close();
    stopServer(server);
  }
}

await main();
