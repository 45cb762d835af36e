import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Eye, EyeOff, X } from 'lucide-react';
import { passwordChecks } from '@pharmapoint/domain/auth';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

const REQUIRED = ['length', 'uppercase', 'lowercase', 'digit'] as const;

/** The rules of seed 002 section 5 (password setup) hold and both entries match. */
export function isPasswordReady(password: string, confirm: string): boolean {
  const checks = passwordChecks(password);
  return REQUIRED.every((key) => checks[key]) && password === confirm;
}

interface SecretProps {
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Given by Field. */
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  required?: boolean;
}

function Secret({ value, onChange, disabled, autoFocus, ...control }: SecretProps) {
  const { t } = useTranslation('checkout');
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <Input
        {...control}
        type={shown ? 'text' : 'password'}
        autoComplete="new-password"
        value={value}
        disabled={disabled}
        autoFocus={autoFocus}
        className="pr-10"
        onChange={(event) => onChange(event.target.value)}
      />
      <button
        type="button"
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-slate-500 hover:text-slate-800"
        aria-label={shown ? t('setup.hide') : t('setup.show')}
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
      </button>
    </div>
  );
}

/** Password and confirmation with show/hide toggles and the live checklist. */
export function CheckoutPasswordFields(props: { password: string; confirm: string; onPassword: (v: string) => void; onConfirm: (v: string) => void; disabled?: boolean }) {
  const { t } = useTranslation('checkout');
  const checks = passwordChecks(props.password);
  const matches = props.confirm.length > 0 && props.password === props.confirm;
  return (
    <>
      <Field label={t('setup.password')}>
        <Secret value={props.password} onChange={props.onPassword} disabled={props.disabled} autoFocus />
      </Field>
      <ul className="space-y-1 text-sm" aria-label={t('setup.requirements')}>
        {REQUIRED.map((key) => (
          <li key={key} className={cn('flex items-center gap-2', checks[key] ? 'text-emerald-700' : 'text-slate-500')}>
            {checks[key] ? <Check className="size-4" aria-hidden="true" /> : <X className="size-4" aria-hidden="true" />}
            <span>{t(`setup.checks.${key}`)}</span>
            <span className="sr-only">{checks[key] ? t('setup.met') : t('setup.notMet')}</span>
          </li>
        ))}
      </ul>
      <Field label={t('setup.confirm')} error={props.confirm.length > 0 && !matches ? t('setup.mismatch') : undefined}>
        <Secret value={props.confirm} onChange={props.onConfirm} disabled={props.disabled} />
      </Field>
      {matches ? (
        <p className="flex items-center gap-2 text-sm text-emerald-700">
          <Check className="size-4" aria-hidden="true" />
          {t('setup.match')}
        </p>
      ) : null}
    </>
  );
}
