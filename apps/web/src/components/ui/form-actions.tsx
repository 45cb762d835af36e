import type { ReactNode } from 'react';

export interface FormActionsProps {
  /** The server's refusal of the last submit, announced to screen readers. */
  error?: ReactNode;
  /** A quieter line on the left when there is no error (unsaved changes, "Demo mode: This action is disabled"). */
  notice?: ReactNode;
  /** The buttons, right-aligned (Cancel, then the primary action). */
  children: ReactNode;
}

/** The footer of a form: its error or notice on the left, its buttons on the right. */
export function FormActions({ error, notice, children }: FormActionsProps) {
  return (
    <div className="flex flex-wrap items-center justify-end gap-3">
      {error ? (
        <p role="alert" className="mr-auto text-sm font-medium text-red-600">
          {error}
        </p>
      ) : notice ? (
        <p className="mr-auto text-sm text-slate-600">{notice}</p>
      ) : null}
      {children}
    </div>
  );
}
