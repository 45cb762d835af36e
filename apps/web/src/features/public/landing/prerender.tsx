/**
 * Renders the landing page to HTML at build time (apps/web/vite.config.ts, prerenderLanding; docs/decisions/0057):
 * the same LandingPage, header and footer the single-page app shows at / when it navigates there itself, with the
 * English catalogue, as a visitor who is not signed in sees them. landing.html carries the result; ./entry.ts is the
 * page's only script.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '@/i18n';
import { composeTitle } from '@/app/document-title';
import { DEFAULT_APP_TITLE } from '@/app/layout/theme';
import LandingPage from '@/features/public/routes/landing-page';

export function renderLanding(): { html: string; title: string } {
  // No query runs while rendering to a string: the header's useMe stays without data, so it shows Sign In.
  const queryClient = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  const html = renderToString(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <StaticRouter location="/">
          <LandingPage />
        </StaticRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { html, title: composeTitle(i18n.t('shell:titles.landing'), DEFAULT_APP_TITLE) };
}
