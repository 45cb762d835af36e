import { cn } from '@/lib/cn';

export interface ProgressBarProps {
  /** Current value, between 0 and max. */
  value: number;
  max?: number;
  /** Accessible name. */
  label: string;
  /** Human text for aria-valuetext (e.g. "12 of 50"). */
  valueText?: string;
  /** Tailwind background class of the filled part (default bg-primary). */
  barClassName?: string;
  className?: string;
}

export function ProgressBar({ value, max = 100, label, valueText, barClassName, className }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(value, max));
  const percent = max > 0 ? (clamped / max) * 100 : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.round(clamped)}
      aria-valuetext={valueText}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className={cn('h-full rounded-full transition-[width]', barClassName ?? 'bg-primary')} style={{ width: `${percent}%` }} />
    </div>
  );
}
