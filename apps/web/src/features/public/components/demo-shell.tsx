import type { ReactNode } from 'react';
import { PublicHeader } from '@/features/public/components/public-header';

/** The demo screens' frame: the public header and a centred card with the page's one h1. */
export function DemoShell({ title, description, icon, children, footer }: { title: ReactNode; description?: ReactNode; icon?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-primary/10 via-white to-secondary/10">
      <PublicHeader />
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-10">
        <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-lg sm:p-8">
          {icon ? <div className="mb-4 flex justify-center">{icon}</div> : null}
          <h1 className="text-center text-2xl font-bold text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-center text-sm text-slate-600">{description}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
      </main>
    </div>
  );
}
