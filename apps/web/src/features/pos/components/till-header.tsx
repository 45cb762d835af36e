import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight, LayoutDashboard, LogOut, RefreshCw, Trash2 } from 'lucide-react';
import type { BranchSummary } from '@pharmapoint/domain/auth';
import { SALE_DATE_MAX_DAYS_BACK } from '@pharmapoint/domain/sales';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { daysBefore } from '@/features/pos/lib/ids';

export interface TillHeaderProps {
  pharmacyName: string;
  itemCount: number;
  role: string;
  branchId: string | null;
  branches: readonly BranchSummary[];
  onBranch: (branchId: string) => void;
  saleDate: string;
  today: string;
  onSaleDate: (date: string) => void;
  onClear: () => void;
  onRefresh: () => void;
  refreshing: boolean;
  onLogout: () => void;
  disabled: boolean;
  /** Further actions (Record Expense, Reprint, Help). */
  actions?: ReactNode;
}

const iconButton =
  'inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-white/90 hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white/60 disabled:opacity-50';

/**
 * The till's sticky header (seed 001 section 2): pharmacy name, item count, role badge, branch switcher, sale-date
 * picker, clear cart, refresh, Dashboard and logout, then the breadcrumb (Dashboard › Point of Sale). It wraps on a
 * phone rather than scrolling sideways.
 */
export function TillHeader(props: TillHeaderProps) {
  const { t } = useTranslation('pos');
  const { branches } = props;
  return (
    <header className="sticky top-0 z-30 bg-header text-white shadow">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="truncate text-base font-bold">{props.pharmacyName}</h1>
          <span className="rounded-full bg-white/15 px-2 py-0.5 text-xs tabular-nums" data-testid="pos-item-count">
            {t('header.items', { count: props.itemCount })}
          </span>
          <Badge tone="info" className="capitalize">{props.role}</Badge>
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-1">
          <label htmlFor="pos-branch" className="sr-only">
            {t('header.branch')}
          </label>
          <select
            id="pos-branch"
            value={props.branchId ?? ''}
            disabled={props.disabled}
            onChange={(event) => props.onBranch(event.target.value)}
            className="h-9 max-w-[11rem] rounded-md border border-white/20 bg-white/10 px-2 text-sm text-white"
          >
            {props.branchId ? null : <option value="">{t('header.noBranch')}</option>}
            {branches.map((b) => (
              <option key={b.id} value={b.id} className="text-slate-900">
                {b.name}
              </option>
            ))}
          </select>
          <label htmlFor="pos-sale-date" className="sr-only">
            {t('header.saleDate')}
          </label>
          <input
            id="pos-sale-date"
            type="date"
            value={props.saleDate}
            max={props.today}
            min={daysBefore(props.today, SALE_DATE_MAX_DAYS_BACK)}
            disabled={props.disabled}
            onChange={(event) => props.onSaleDate(event.target.value)}
            className={cn('h-9 rounded-md border border-white/20 bg-white/10 px-2 text-sm text-white [color-scheme:dark]', props.saleDate !== props.today && 'border-amber-300 bg-amber-500/30')}
          />
          <button type="button" className={iconButton} onClick={props.onClear} disabled={props.disabled || props.itemCount === 0} title={t('header.clearHint')}>
            <Trash2 className="size-4" aria-hidden="true" />
            <span className="hidden lg:inline">{t('header.clear')}</span>
            <span className="sr-only lg:hidden">{t('header.clear')}</span>
          </button>
          <button type="button" className={iconButton} onClick={props.onRefresh} disabled={props.refreshing}>
            <RefreshCw className={cn('size-4', props.refreshing && 'animate-spin')} aria-hidden="true" />
            <span className="hidden lg:inline">{t('header.refresh')}</span>
            <span className="sr-only lg:hidden">{t('header.refresh')}</span>
          </button>
          {props.actions}
          <Link to="/dashboard" className={iconButton}>
            <LayoutDashboard className="size-4" aria-hidden="true" />
            <span className="hidden lg:inline">{t('header.dashboard')}</span>
            <span className="sr-only lg:hidden">{t('header.dashboard')}</span>
          </Link>
          <button type="button" className={iconButton} onClick={props.onLogout}>
            <LogOut className="size-4" aria-hidden="true" />
            <span className="hidden lg:inline">{t('header.logout')}</span>
            <span className="sr-only lg:hidden">{t('header.logout')}</span>
          </button>
        </div>
      </div>
      <nav aria-label={t('header.breadcrumb')} className="border-t border-white/10 bg-black/10">
        <ol className="mx-auto flex max-w-7xl items-center gap-1 px-3 py-1 text-xs text-white/80">
          <li>
            <Link to="/dashboard" className="hover:underline">
              {t('header.crumbDashboard')}
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-3" />
          </li>
          <li aria-current="page" className="font-medium text-white">
            {t('header.crumbPos')}
          </li>
        </ol>
      </nav>
    </header>
  );
}
