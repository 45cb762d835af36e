import { useTranslation } from 'react-i18next';
import { Check, X } from 'lucide-react';
import { passwordChecks } from '@pharmapoint/domain/auth';
import { cn } from '@/lib/cn';

const REQUIRED = ['length', 'uppercase', 'lowercase', 'digit'] as const;

/** The live requirements checklist of seed 002 (password setup), plus the match with the confirmation. */
export function PasswordChecklist({ password, confirm }: { password: string; confirm: string }) {
  const { t } = useTranslation('auth');
  const checks = passwordChecks(password);
  const items = [...REQUIRED.map((key) => ({ key, ok: checks[key] })), { key: 'match' as const, ok: password.length > 0 && password === confirm }];
  return (
    <ul className="space-y-1 text-sm" aria-label={t('password.requirements')}>
      {items.map((item) => (
        <li key={item.key} className={cn('flex items-center gap-2', item.ok ? 'text-emerald-700' : 'text-slate-500')}>
          {item.ok ? <Check className="size-4" aria-hidden="true" /> : <X className="size-4" aria-hidden="true" />}
          <span>{t(`password.checks.${item.key}`)}</span>
          <span className="sr-only">{item.ok ? t('password.met') : t('password.notMet')}</span>
        </li>
      ))}
    </ul>
  );
}

/** All required rules hold and both entries match. */
export function isPasswordReady(password: string, confirm: string): boolean {
  const checks = passwordChecks(password);
  return REQUIRED.every((key) => checks[key]) && password === confirm;
}
