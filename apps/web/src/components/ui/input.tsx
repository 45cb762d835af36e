import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '@/lib/cn';

export const controlClasses =
  'block w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, type, ref, ...rest }: InputProps) {
  return <input ref={ref} type={type ?? 'text'} className={cn(controlClasses, 'h-10', className)} {...rest} />;
}
