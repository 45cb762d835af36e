import { useId, type ReactNode } from 'react';
import * as SwitchPrimitive from '@radix-ui/react-switch';
import { cn } from '@/lib/cn';

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  id?: string;
  className?: string;
}

/** An on/off toggle (Radix: a button with role="switch" and aria-checked), named by its label. */
export function Switch({ checked, onCheckedChange, label, description, disabled, id, className }: SwitchProps) {
  const generated = useId();
  const switchId = id ?? `switch-${generated}`;
  const labelId = `${switchId}-label`;
  const descriptionId = description ? `${switchId}-description` : undefined;
  return (
    <div className={cn('flex items-center justify-between gap-4', className)}>
      <div className="text-sm">
        <span id={labelId} className="font-medium text-slate-700">
          {label}
        </span>
        {description ? (
          <p id={descriptionId} className="text-slate-500">
            {description}
          </p>
        ) : null}
      </div>
      <SwitchPrimitive.Root
        id={switchId}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        className="relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors disabled:opacity-50 data-[state=checked]:bg-primary"
      >
        <SwitchPrimitive.Thumb className="inline-block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-5" />
      </SwitchPrimitive.Root>
    </div>
  );
}
