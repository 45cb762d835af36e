import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { ProgressBar } from '@/components/ui/progress-bar';
import { usagePercent, usageTone } from '@/components/ui/usage-tone';

export interface UsageBarProps {
  label: string;
  used: number;
  /** The plan limit; -1 means unlimited. */
  limit: number;
  className?: string;
}

const barColours = { red: 'bg-red-500', yellow: 'bg-yellow-400', green: 'bg-emerald-500' } as const;

export function UsageBar({ label, used, limit, className }: UsageBarProps) {
  const { t } = useTranslation();
  const unlimited = limit === -1;
  const percent = usagePercent(used, limit) ?? 0;
  const text = unlimited ? t('usage.unlimitedOf', { used }) : t('usage.of', { used, limit });
  return (
    <div className={cn('space-y-1', className)}>
      <div className="flex justify-between text-sm">
        <span className="font-medium text-slate-700">{label}</span>
        <span className="tabular-nums text-slate-600">{unlimited ? t('usage.unlimited') : text}</span>
      </div>
      {unlimited ? null : <ProgressBar value={percent} label={label} valueText={text} barClassName={barColours[usageTone(percent)]} />}
    </div>
  );
}
