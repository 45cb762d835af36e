// First: on /pos the till's catalogue is asked for before anything else loads (decision 0064).
import '@/features/pos/catalogue/catalogue-preload';
import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { ApiError } from '@/lib/api';
import { setSessionHint } from '@/lib/session-hint';
import { createAppRouter } from '@/app/router';

function createQueryClient() {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Client errors (401, 403, 404, 423) will not change on retry.
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  // Whatever sets the signed-in user (sign-in, an invitation accepted, sign-out) updates the session hint public
  // pages read before asking GET /api/me (lib/session-hint.ts).
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryKey[0] !== 'me') return;
    setSessionHint(event.query.state.data != null);
  });
  return client;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/*
        Per-kind durations (3 s success, 5 s error) are set by @/lib/toast. Toasts open at the top centre, below the
        44 px demo or admin bar and the phone header, so they never cover the menu button, Exit Admin Mode, the demo
        bar's button or a screen's actions (which sit at the right).
      */}
      <Toaster position="top-center" offset={{ top: '3.5rem' }} mobileOffset={{ top: '7rem' }} duration={4000} richColors closeButton />
    </QueryClientProvider>
  );
}
