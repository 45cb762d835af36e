import { useId, type ReactNode } from 'react';
import * as CheckboxPrimitive from '@radix-ui/react-checkbox';
import { Check } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface CheckboxProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
  /** Submitted with a native form (Radix renders a hidden input for it). */
  name?: string;
  className?: string;
}

/** A checkbox with its label (Radix: role="checkbox", Space toggles, the label clicks it). */
export function Checkbox({ label, description, checked, onCheckedChange, disabled, id, name, className }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? `checkbox-${generated}`;
  const descriptionId = description ? `${inputId}-description` : undefined;
  return (
    <div className={cn('flex items-start gap-2', className)}>
      <CheckboxPrimitive.Root
        id={inputId}
        name={name}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(state) => onCheckedChange(state === true)}
        aria-describedby={descriptionId}
        className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border border-slate-400 bg-white text-primary-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-50 data-[state=checked]:border-primary data-[state=checked]:bg-primary"
      >
        <CheckboxPrimitive.Indicator>
          <Check className="size-3" strokeWidth={3} aria-hidden="true" />
        </CheckboxPrimitive.Indicator>
      </CheckboxPrimitive.Root>
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
