import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  /** Heading shown at the top; also names the section for screen readers. */
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons at the right of the header. */
  actions?: ReactNode;
  /** Heading level of the title (default h2). */
  headingLevel?: 2 | 3 | 4;
  /** Remove the body padding (tables that run edge to edge). */
  flush?: boolean;
}

export function Card({ title, description, actions, headingLevel = 2, flush = false, className, children, ...rest }: CardProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section className={cn('rounded-lg border border-slate-200 bg-white shadow-sm', className)} {...rest}>
      {title || actions ? (
        <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-4 py-3">
          <div>
            {title ? <Heading className="text-base font-semibold text-slate-900">{title}</Heading> : null}
            {description ? <p className="text-sm text-slate-500">{description}</p> : null}
          </div>
          {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
        </header>
      ) : null}
      <div className={flush ? undefined : 'p-4'}>{children}</div>
    </section>
  );
}
