import { cn } from '@/lib/cn';

export interface SpinnerProps {
  className?: string;
  /** Accessible name; omit when the spinner sits inside something already named (a busy button). */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  return (
    <span
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn('inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent', className)}
    />
  );
}
