import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface ControlProps {
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  required?: boolean;
}

export interface FieldProps {
  label: ReactNode;
  /** One control element (Input, Select, Textarea...); Field gives it id, aria-invalid and aria-describedby. */
  children: ReactElement<ControlProps>;
  hint?: ReactNode;
  /** Error text; when set the control is marked invalid and described by it. */
  error?: ReactNode;
  /** Shows a required marker (and sets `required` on the control). */
  required?: boolean;
  className?: string;
  /** Use a known id instead of a generated one. */
  id?: string;
}

/** Label + control + hint + error, wired for assistive technology. */
export function Field({ label, children, hint, error, required, className, id }: FieldProps) {
  const generated = useId();
  const controlId = id ?? children.props.id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        'aria-invalid': error ? true : children.props['aria-invalid'],
        'aria-describedby': describedBy,
        required: required ?? children.props.required,
      })
    : children;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-700">
        {label}
        {required ? (
          <span className="ml-0.5 text-red-600" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
