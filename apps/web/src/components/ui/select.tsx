import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { controlClasses } from '@/components/ui/input';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  /** Options to render; children are rendered too (after the placeholder), for optgroups. */
  options?: readonly SelectOption[];
  /** An empty first option (value ''). */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A native <select>: accessible and fast on phones. */
export function Select({ options, placeholder, className, children, ref, ...rest }: SelectProps) {
  return (
    <select ref={ref} className={cn(controlClasses, 'h-10 pr-8', className)} {...rest}>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options?.map((o) => (
        <option key={o.value} value={o.value} disabled={o.disabled}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
  );
}
