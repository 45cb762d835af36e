import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '@/lib/api';

/**
 * Forms on react-hook-form with the domain's zod schemas (zodResolver): the browser checks what the server
 * checks, with the same sentences. This file wires the server's answer back into the form: each validation
 * issue beside its field, and one sentence for the form (never a path such as 'items.0.delta: ...').
 */

export interface ServerIssue {
  path: string;
  message: string;
}

/** The validation issues of a server refusal ({ details: { issues: [{ path, message }] } }); [] for anything else. */
export function serverIssues(error: unknown): ServerIssue[] {
  if (!(error instanceof ApiError)) return [];
  const issues = (error.details as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    return typeof message === 'string' && message ? [{ path: typeof path === 'string' ? path : '', message }] : [];
  });
}

/** The sentence a person reads for a refused save: a validation issue's own message (no field path), else the error's text. */
export function formErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
    const first = serverIssues(error)[0];
    if (first) return first.message;
  }
  const text = errorMessage(error);
  // The server prefixes a validation message with the field's path ('items.0.delta: The change ...'): drop it.
  return error instanceof ApiError && error.code === 'VALIDATION_FAILED' ? text.replace(/^[\w.[\]]+: /, '') : text;
}

/**
 * Puts each server issue beside its field: `fieldOf` maps the request's path ('branches.0.sellingPriceCents') to
 * the form's field name, or null when the form has no such field. Returns the sentence for the whole form.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldOf: (path: string) => Path<T> | null,
): string {
  const seen = new Set<string>();
  for (const issue of serverIssues(error)) {
    const field = fieldOf(issue.path);
    if (!field || seen.has(field)) continue;
    seen.add(field);
    setError(field, { type: 'server', message: issue.message });
  }
  return formErrorText(error);
}

/** Characters used of a maximum, shown under a text field ('12 / 120'). */
export function LengthHint({ length, max, children }: { length: number; max: number; children?: ReactNode }) {
  return (
    <span className={length > max ? 'text-red-600' : undefined}>
      {children ? <>{children} </> : null}
      {length} / {max}
    </span>
  );
}
