import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> {
  label: ReactNode;
  description?: ReactNode;
  onCheckedChange?: (checked: boolean) => void;
  onChange?: InputHTMLAttributes<HTMLInputElement>['onChange'];
}

/** A native checkbox with its label. */
export function Checkbox({ label, description, className, id, onCheckedChange, onChange, ...rest }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? `checkbox-${generated}`;
  const descriptionId = description ? `${inputId}-description` : undefined;
  return (
    <div className={cn('flex items-start gap-2', className)}>
      <input
        id={inputId}
        type="checkbox"
        aria-describedby={descriptionId}
        className="mt-0.5 size-4 rounded border-slate-300 accent-primary"
        onChange={(event) => {
          onChange?.(event);
          onCheckedChange?.(event.target.checked);
        }}
        {...rest}
      />
      <div className="text-sm">
        <label htmlFor={inputId} className="font-medium text-slate-700">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-slate-500">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
