import type { HTMLAttributes, ReactNode, Ref, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the table for screen readers; visually hidden unless showCaption. */
  caption: ReactNode;
  showCaption?: boolean;
  /** Classes of the scrolling wrapper. */
  wrapperClassName?: string;
  /** The scrolling wrapper (the scroll element of a virtualised body). */
  wrapperRef?: Ref<HTMLDivElement>;
}

/**
 * A real <table> in a horizontally scrolling wrapper. Compose with THead/TBody/Tr/Th/Td. The wrapper is positioned so
 * visually hidden (absolutely positioned) cells' text scrolls with the table instead of widening the page on phones.
 */
export function Table({ caption, showCaption, className, wrapperClassName, wrapperRef, children, ...rest }: TableProps) {
  return (
    <div ref={wrapperRef} className={cn('relative w-full overflow-x-auto', wrapperClassName)}>
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...rest}>
        <caption className={showCaption ? 'mb-2 text-left text-sm font-medium text-slate-700' : 'sr-only'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function THead({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn('bg-slate-50 text-xs uppercase tracking-wide text-slate-600', className)} {...rest} />;
}

export function TBody({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn('divide-y divide-slate-100', className)} {...rest} />;
}

export function TFoot({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tfoot className={cn('border-t border-slate-200 bg-slate-50 font-medium', className)} {...rest} />;
}

export function Tr({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('hover:bg-slate-50/60', className)} {...rest} />;
}

export interface ThProps extends ThHTMLAttributes<HTMLTableCellElement> {
  /** 'col' (default) for header cells, 'row' for a row's first cell. */
  scope?: 'col' | 'row' | 'colgroup' | 'rowgroup';
  numeric?: boolean;
}

export function Th({ scope = 'col', numeric, className, ...rest }: ThProps) {
  return <th scope={scope} className={cn('px-3 py-2 font-semibold', numeric && 'text-right', className)} {...rest} />;
}

export interface TdProps extends TdHTMLAttributes<HTMLTableCellElement> {
  numeric?: boolean;
}

export function Td({ numeric, className, ...rest }: TdProps) {
  return <td className={cn('px-3 py-2 align-middle text-slate-800', numeric && 'text-right tabular-nums', className)} {...rest} />;
}
