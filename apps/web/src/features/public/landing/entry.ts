/**
 * The landing page's only script (landing.html; docs/decisions/0057). The page itself is HTML prerendered at build
 * time from LandingPage (./prerender.tsx), so nothing here draws it: this file brings to life the three things the
 * React header does on its own elsewhere, on the same markup (components/public-header.tsx):
 * - the header's look after 30 px of scrolling (data-scrolled on the header),
 * - the mobile menu (the button's aria-expanded and label, the menu's hidden attribute; a link in it closes it),
 * - a signed-in visitor's Sign In link becoming Dashboard (asked of GET /api/me only when this browser may hold a
 *   session, as the app's useMe does, so a visitor's console shows no 401).
 * Every link on the page is a plain link to the single-page app (index.html), served by the server for other paths.
 */
import '@/index.css';
import { hasSessionHint, setSessionHint } from '@/lib/session-hint';

const header = document.querySelector<HTMLElement>('[data-public-header]');

if (header) {
  const onScroll = () => {
    header.dataset.scrolled = String(window.scrollY > 30);
  };
  onScroll();
  window.addEventListener('scroll', onScroll, { passive: true });

  const button = header.querySelector<HTMLButtonElement>('button[aria-controls="public-menu"]');
  const menu = document.getElementById('public-menu');
  if (button && menu) {
    const setOpen = (open: boolean) => {
      menu.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
      const label = open ? button.dataset.closeLabel : button.dataset.openLabel;
      if (label) button.setAttribute('aria-label', label);
    };
    button.addEventListener('click', () => setOpen(menu.hidden));
    menu.addEventListener('click', (event) => {
      if ((event.target as Element | null)?.closest('a')) setOpen(false);
    });
  }
}

async function recogniseSignedInVisitor(): Promise<void> {
  if (!hasSessionHint()) return;
  try {
    const response = await fetch('/api/me', { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (response.status === 401) {
      setSessionHint(false);
      return;
    }
    if (!response.ok) return;
    setSessionHint(true);
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]')) {
      link.href = '/app/dashboard';
      if (link.dataset.signedInLabel) link.textContent = link.dataset.signedInLabel;
    }
  } catch {
    // Offline or the server unreachable: the visitor keeps Sign In, which works either way.
  }
}

void recogniseSignedInVisitor();
