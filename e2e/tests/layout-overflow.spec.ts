import { expect, test, type Page } from '@playwright/test';
import { signInAs, type SeededUserKey } from './helpers';

/**
 * Phones and small screens (issue 8 item 10): every built screen at 360 × 740 and 1366 × 768 is photographed into
 * the test output, and fails when the page scrolls sideways (document scrollWidth above the window's width).
 * Tables scroll inside their own wrapper; the history table's columns must fit at 1366 as well.
 */
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'laptop', width: 1366, height: 768 },
] as const;

const PUBLIC_PAGES = ['/', '/demo', '/login', '/forgot-password', '/purchase', '/demo-register'];

/** Each role's reachable built screens ('{product}' is replaced by a product's id). */
const SCREENS: Record<string, { who: SeededUserKey; paths: string[] }> = {
  owner: {
    who: 'owner',
    paths: [
      '/app/dashboard',
      '/app/products',
      '/app/products/add',
      '/app/products/edit/{product}',
      '/app/products/history/{product}',
      '/app/products/bulk-import',
      '/app/stock-adjustments',
      '/app/stock-transfers',
      '/app/reports/view-adjustments',
      '/app/reports/expiry',
      '/app/reports/low-stock',
      '/app/settings',
      '/app/branches',
      '/app/users',
      '/app/subscription',
      '/app/profile',
      '/app/manual',
      '/pos',
    ],
  },
  cashier: { who: 'cashier', paths: ['/app/dashboard', '/app/products', '/app/profile'] },
  operator: { who: 'operator', paths: ['/app/admin/saas-dashboard', '/app/dashboard'] },
};

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** The widest elements reaching past the right edge, to say what overflows. */
  culprits: string[];
}

async function overflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const rect = element.getBoundingClientRect();
      if (rect.right > innerWidth + 1 && rect.width > 0) {
        const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).slice(0, 60)}`;
        culprits.push(`${label} (right ${Math.round(rect.right)})`);
      }
      if (culprits.length >= 5) break;
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, culprits };
  });
}

async function settle(page: Page, path: string): Promise<void> {
  await expect(page.getByRole('heading').first(), `a heading on ${path}`).toBeVisible();
  await expect(page.getByText('Loading... Please wait...')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

async function check(page: Page, path: string, viewport: string, failures: string[]): Promise<void> {
  await page.goto(path);
  await settle(page, path);
  const name = `${viewport}${path.replace(/[^a-z0-9]+/gi, '-')}`.replace(/-+$/, '');
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  const result = await overflow(page);
  if (result.scrollWidth > result.innerWidth) {
    failures.push(`${path} at ${viewport}: scrollWidth ${result.scrollWidth} > ${result.innerWidth}: ${result.culprits.join('; ')}`);
  }
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('public pages do not scroll sideways', async ({ page }) => {
      const failures: string[] = [];
      for (const path of PUBLIC_PAGES) await check(page, path, viewport.name, failures);
      expect(failures).toEqual([]);
    });

    for (const [role, { who, paths }] of Object.entries(SCREENS)) {
      test(`${role}'s screens do not scroll sideways`, async ({ page }) => {
        test.setTimeout(240_000);
        await signInAs(page, who, { expectUrl: /\/app\// });
        let productId = '';
        if (paths.some((path) => path.includes('{product}'))) {
          const list = (await (await page.request.get('/api/products?limit=1')).json()) as { items: { id: string }[] };
          productId = list.items[0]!.id;
        }
        const failures: string[] = [];
        for (const path of paths) await check(page, path.replace('{product}', productId), viewport.name, failures);
        expect(failures).toEqual([]);
      });
    }
  });
}

test.describe('at 1366 × 768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });
  test("the history page's stock-by-branch table shows every column without scrolling", async ({ page }) => {
    await signInAs(page, 'owner');
    const list = (await (await page.request.get('/api/products?limit=1')).json()) as { items: { id: string }[] };
    await page.goto(`/app/products/history/${list.items[0]!.id}`);
    const table = page.getByRole('table', { name: 'Stock and prices by branch' });
    await expect(table).toBeVisible();
    const fits = await table.evaluate((element) => {
      const wrapper = element.parentElement!;
      return wrapper.scrollWidth <= wrapper.clientWidth;
    });
    expect(fits).toBe(true);
    await expect(table.getByText(/^Available: (Yes|No)$/).first()).toBeInViewport();
  });

  test('a toast covers neither the demo bar nor its button', async ({ page }) => {
    await signInAs(page, 'demo');
    const toast = page.locator('[data-sonner-toast]').first();
    await expect(toast).toBeVisible();
    const toastBox = await toast.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    const bar = page.getByRole('status').getByRole('link', { name: 'Get PharmaPoint' });
    const barBox = await bar.boundingBox();
    expect(toastBox && barBox && toastBox.y >= barBox.y + barBox.height).toBe(true);
  });
});

test.describe('at 360 × 740', () => {
  test.use({ viewport: { width: 360, height: 740 } });
  test('the sign-in toast leaves the menu button and the demo bar button free', async ({ page }) => {
    await signInAs(page, 'demo');
    const toast = page.locator('[data-sonner-toast]').first();
    await expect(toast).toBeVisible();
    const toastBox = await toast.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    for (const control of [page.getByRole('button', { name: 'Open menu' }), page.getByRole('status').getByRole('link', { name: 'Get PharmaPoint' })]) {
      const box = (await control.boundingBox())!;
      const overlaps = box.x < toastBox.x + toastBox.width && toastBox.x < box.x + box.width && box.y < toastBox.y + toastBox.height && toastBox.y < box.y + box.height;
      expect(overlaps).toBe(false);
    }
    // The menu button can be pressed while the toast is up.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });
});
