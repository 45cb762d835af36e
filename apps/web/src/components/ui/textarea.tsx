import type { Ref, TextareaHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { controlClasses } from '@/components/ui/input';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function Textarea({ className, rows, ref, ...rest }: TextareaProps) {
  return <textarea ref={ref} rows={rows ?? 3} className={cn(controlClasses, 'py-2', className)} {...rest} />;
}
