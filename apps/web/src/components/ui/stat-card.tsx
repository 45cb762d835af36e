import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export type StatTone = 'neutral' | 'positive' | 'negative' | 'warning' | 'primary';

const toneClasses: Record<StatTone, string> = {
  neutral: 'text-slate-900',
  positive: 'text-emerald-700',
  negative: 'text-red-700',
  warning: 'text-amber-700',
  primary: 'text-primary',
};

export interface StatCardProps {
  label: ReactNode;
  value: ReactNode;
  /** A line under the value (e.g. "Profitable"). */
  hint?: ReactNode;
  icon?: ReactNode;
  tone?: StatTone;
  className?: string;
}

export function StatCard({ label, value, hint, icon, tone = 'neutral', className }: StatCardProps) {
  return (
    <div className={cn('rounded-lg border border-slate-200 bg-white p-4 shadow-sm', className)}>
      <div className="flex items-start justify-between gap-2">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        {icon ? (
          <span className="text-slate-400" aria-hidden="true">
            {icon}
          </span>
        ) : null}
      </div>
      <p className={cn('mt-2 text-2xl font-bold tabular-nums', toneClasses[tone])}>{value}</p>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}
