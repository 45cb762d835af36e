import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';

/**
 * The seeded sign-ins (apps/server/src/db/seed.ts, SEEDED_USERS). Kept here rather than imported: seed.ts pulls in
 * the server's database and password hashing, which the browser tests must not load.
 */
export const SEEDED_PASSWORD = 'Pharma#2026';

export const USERS = {
  owner: 'owner@afyabora.test',
  admin: 'admin@afyabora.test',
  manager: 'manager@afyabora.test',
  cashier: 'cashier@afyabora.test',
  inventory: 'inventory@afyabora.test',
  accounts: 'accounts@afyabora.test',
  staff: 'staff@afyabora.test',
  user: 'user@afyabora.test',
  demo: 'demo@pharmapoint.test',
  operator: 'operator@pharmapoint.test',
  trialOwner: 'owner@uzimachemists.test',
} as const;

export type SeededUserKey = keyof typeof USERS;

export const ACCESS_DENIED = "You don't have permission to access this page.";

/** A unique suffix, so tests that create data never collide (across workers and re-runs). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

/** The password field of a form (not the "Show password" toggle next to it). */
export function passwordField(page: Page, label = 'Password'): Locator {
  return page.getByLabel(label, { exact: true });
}

/** Signs in through the login form, like a person, and waits for the signed-in area. */
export async function signIn(page: Page, email: string, password: string = SEEDED_PASSWORD, options: { expectUrl?: RegExp } = {}): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(options.expectUrl ?? /\/app\//);
}

/** Where the sign-in form sends a user with no remembered destination (the web's landingAfterSignIn). */
function landingOf(me: { pharmacy: unknown; user: { isPlatformOperator?: boolean } }): string {
  if (me.pharmacy) return '/app/dashboard';
  return me.user.isPlatformOperator ? '/app/admin' : '/choose-pharmacy';
}

/**
 * Signs in through the API (POST /api/auth/login, as the sign-in form does, with its CSRF cookie and header) in this
 * page's browser context: a new session of its own, like the form gives, without rendering the sign-in page. The
 * form itself is tested by auth.spec (signIn). Then opens where the form would land (the dashboard for a pharmacy
 * member) and waits for a signed-in URL; or `open: path`, the test's own screen; or, with `open: false`, nothing,
 * for a test whose next step is an API call or a page.goto of its own.
 */
export async function signInAs(page: Page, who: SeededUserKey, options: { expectUrl?: RegExp; open?: string | false } = {}): Promise<void> {
  const request = page.context().request;
  const csrfCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'pp_csrf')?.value;
  if (!(await csrfCookie())) await request.get('/api/auth/providers');
  const csrf = await csrfCookie();
  if (!csrf) throw new Error('the server set no pp_csrf cookie');
  const response = await request.post('/api/auth/login', {
    data: { email: USERS[who], password: SEEDED_PASSWORD },
    headers: { 'x-csrf-token': decodeURIComponent(csrf) },
  });
  expect(response.status(), `sign-in of ${USERS[who]}: ${await response.text()}`).toBe(200);
  if (options.open === false) return;
  if (options.open !== undefined) {
    // The test's own screen (it may be public, or the till): the test asserts what it shows.
    await page.goto(options.open);
    if (options.expectUrl) await expect(page).toHaveURL(options.expectUrl);
    return;
  }
  await page.goto(landingOf(await response.json()));
  await expect(page).toHaveURL(options.expectUrl ?? /\/app\//);
}

/** The sidebar's main navigation. */
export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** Asserts the page shows Access Denied. */
export async function expectAccessDenied(page: Page): Promise<void> {
  await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
}

/** Opens a path and asserts the screen with this h1 is shown (not Access Denied). */
export async function expectScreen(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
}

/** Opens a path and asserts Access Denied. */
export async function expectDenied(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expectAccessDenied(page);
}

function decodeEntities(html: string): string {
  return html
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/gi, '/')
    .replace(/&#47;/g, '/')
    .replace(/&#61;/g, '=')
    .replace(/&#x3D;/gi, '=')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/**
 * The newest link to `path` (e.g. '/accept-invite') in an email to `to`, read from the dev mailbox page
 * (/dev/mailbox lists the outbox when no SMTP server is configured). Polls until the email is there.
 */
export async function linkFromMailbox(request: APIRequestContext, to: string, path: string): Promise<string> {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const linkPattern = new RegExp(`https?://[^\\s"'<>]+${escaped}\\?[^\\s"'<>]+`, 'g');
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/dev/mailbox');
        if (!response.ok()) return undefined;
        const html = decodeEntities(await response.text());
        // One block per email: split where an email's container opens, keep those addressed to `to`.
        const blocks = html.split(/(?=<(?:article|li|tr|section)\b)/i).filter((block) => block.toLowerCase().includes(to.toLowerCase()));
        const links = blocks.flatMap((block) => block.match(linkPattern) ?? []);
        found = links[0];
        return found;
      },
      { message: `an email to ${to} with a ${path} link`, timeout: 20_000, intervals: [250, 500, 1000] },
    )
    .toBeTruthy();
  return found!;
}

/** The CSRF token the server set for this browser context (double-submit cookie pp_csrf). */
export async function csrfToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  const csrf = cookies.find((cookie) => cookie.name === 'pp_csrf');
  if (!csrf) throw new Error('no pp_csrf cookie: sign in first');
  return decodeURIComponent(csrf.value);
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signed-in states made in this worker: one sign-in per seeded user, reused for SIGNED_IN_STATE_MAX_AGE_MS. */
const signedInStates = new Map<SeededUserKey, { made: number; state: Promise<StorageState> }>();
/** Well inside the server's 15 minutes of inactivity that lock a session (SESSION_LOCK_MINUTES in the config). */
const SIGNED_IN_STATE_MAX_AGE_MS = 5 * 60_000;

/**
 * The cookies and storage of a seeded user signed in through the API (signInAs), made once per worker (and again after five
 * minutes) in a context of its own. For tests that only look around as that user: with
 * `test.use({ storageState: ({ browser }, use) => signedInState(browser, 'owner').then(use) })` each test starts
 * signed in without paying for the sign-in page. A test that signs out, locks the session, switches pharmacy or
 * branch, or changes the user must sign in itself (signInAs): the session is shared.
 */
export function signedInState(browser: Browser, who: SeededUserKey): Promise<StorageState> {
  const cached = signedInStates.get(who);
  if (cached && Date.now() - cached.made < SIGNED_IN_STATE_MAX_AGE_MS) return cached.state;
  const state = (async () => {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    try {
      const page = await context.newPage();
      await signInAs(page, who, { open: false });
      return await context.storageState();
    } finally {
      await context.close();
    }
  })();
  signedInStates.set(who, { made: Date.now(), state });
  state.catch(() => signedInStates.delete(who));
  return state;
}
