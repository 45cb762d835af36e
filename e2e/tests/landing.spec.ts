import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signInAs } from './helpers';

/**
 * Issue 11 item 1 (docs/decisions/0057): / and /landing are the prerendered landing page (landing.html) with one small
 * script; its links open the single-page app; the header's mobile menu, scroll look and a signed-in visitor's
 * Dashboard link work without React; the screenshots keep their room and the ones below the fold load lazily.
 */

test('the landing page is HTML with one small script, readable at 360 px, and its menu works', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const scripts: string[] = [];
  const images: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    if (request.resourceType() === 'image') images.push(new URL(request.url()).pathname);
  });
  for (const path of ['/', '/landing']) {
    scripts.length = 0;
    await page.goto(path);
    await expect(page).toHaveTitle('Pharmacy point of sale and inventory · PharmaPoint');
    await expect(page.getByRole('heading', { level: 1, name: 'Run your pharmacy from one simple till' })).toBeVisible();
    // Not the app's entry (React, router, API client): the landing page's own script and what it imports.
    expect(scripts.some((s) => /\/assets\/landing-[^/]+\.js$/.test(s)), scripts.join(', ')).toBe(true);
    expect(scripts.some((s) => /\/assets\/(index|react)-[^/]+\.js$/.test(s)), scripts.join(', ')).toBe(false);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The pictures below the fold are not fetched until scrolled to; each keeps its room (width and height set).
  expect(images.filter((s) => s.includes('/screenshots/dashboard'))).toEqual([]);
  for (const img of await page.locator('main img').all()) {
    await expect(img).toHaveAttribute('width', '1280');
    await expect(img).toHaveAttribute('height', '800');
  }
  await page.getByRole('list', { name: 'Screens from the app' }).scrollIntoViewIfNeeded();
  await expect
    .poll(() => page.locator('main img').evaluateAll((all) => all.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);

  // The header: transparent at the top, its look changes after 30 px; the mobile menu opens, and a link closes it.
  await page.evaluate(() => window.scrollTo(0, 0));
  const header = page.locator('header[data-public-header]');
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo(0, 200));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#public-menu');
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.getByRole('heading', { name: 'One complete plan' })).toBeInViewport();
});

test('the landing page’s links open the app: Pay via M-Pesa, View Demo, Sign In', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Pay via M-Pesa' }).click();
  await expect(page).toHaveURL(/\/purchase$/);
  await expect(page.getByRole('heading', { name: 'Buy PharmaPoint' })).toBeVisible();
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'View Demo' }).click();
  await expect(page).toHaveURL(/\/demo-register$/);
  await page.goto('/landing');
  await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('a signed-in visitor of the landing page gets Dashboard instead of Sign In', async ({ page }) => {
  await signInAs(page, 'owner', { open: '/' });
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/app/dashboard');
  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
});

test('the landing page has no serious accessibility violations, on a phone and on a laptop', async ({ page }) => {
  for (const viewport of [{ width: 360, height: 740 }, { width: 1366, height: 768 }]) {
    await page.setViewportSize(viewport);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${viewport.width} px`).toEqual([]);
  }
});
