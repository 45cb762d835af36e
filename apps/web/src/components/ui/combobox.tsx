import { useState, type ReactNode } from 'react';
import { Command } from 'cmdk';
import { Check, ChevronsUpDown } from 'lucide-react';
import { cn } from '@/lib/cn';
import { controlClasses } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Spinner } from '@/components/ui/spinner';

export interface ComboboxOption {
  value: string;
  label: string;
  /** A second line (e.g. SKU and stock). */
  description?: ReactNode;
  /** Extra words the search matches (barcode, generic name). */
  keywords?: string[];
  disabled?: boolean;
}

export interface ComboboxProps {
  value: string | null;
  onValueChange: (value: string) => void;
  options: readonly ComboboxOption[];
  /** Trigger text while nothing is chosen. */
  placeholder: string;
  /** Accessible name of the search box inside the list. */
  searchLabel: string;
  searchPlaceholder?: string;
  /** Shown when no option matches. */
  emptyText: ReactNode;
  /**
   * Server search: called with the typed text (debounce it); the options are then the server's results and are not
   * filtered again in the browser. Without it, the options are filtered here.
   */
  onSearchChange?: (search: string) => void;
  loading?: boolean;
  loadingText?: string;
  disabled?: boolean;
  /** Set by <Field>: the label's htmlFor points at the trigger. */
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  className?: string;
}

/**
 * A searchable select: a trigger button (role="combobox") that opens a Radix popover with a cmdk list — type to
 * filter, arrow keys to move, Enter to choose, Escape to close. Works inside <Field>.
 */
export function Combobox({
  value,
  onValueChange,
  options,
  placeholder,
  searchLabel,
  searchPlaceholder,
  emptyText,
  onSearchChange,
  loading,
  loadingText,
  disabled,
  id,
  className,
  ...aria
}: ComboboxProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const selected = options.find((option) => option.value === value);
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next && search) {
          setSearch('');
          onSearchChange?.('');
        }
      }}
    >
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-haspopup="listbox"
          disabled={disabled}
          {...aria}
          className={cn(controlClasses, 'flex h-10 items-center justify-between gap-2 text-left', className)}
        >
          <span className={cn('truncate', !selected && 'text-slate-400')}>{selected ? selected.label : placeholder}</span>
          <ChevronsUpDown className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
        </button>
      </PopoverTrigger>
      <PopoverContent className="p-0">
        <Command shouldFilter={!onSearchChange} loop label={searchLabel}>
          <Command.Input
            value={search}
            onValueChange={(text) => {
              setSearch(text);
              onSearchChange?.(text);
            }}
            aria-label={searchLabel}
            placeholder={searchPlaceholder}
            className="h-10 w-full border-b border-slate-200 px-3 text-sm outline-none placeholder:text-slate-400"
          />
          <Command.List className="max-h-72 overflow-y-auto p-1">
            {loading ? (
              <Command.Loading>
                <span className="flex items-center gap-2 px-3 py-2 text-slate-500">
                  <Spinner className="size-4" />
                  {loadingText}
                </span>
              </Command.Loading>
            ) : null}
            {loading ? null : <Command.Empty className="px-3 py-2 text-slate-500">{emptyText}</Command.Empty>}
            {options.map((option) => (
              <Command.Item
                key={option.value}
                // cmdk matches on value and keywords; the label leads so typing a name finds it.
                value={`${option.label} ${option.value}`}
                keywords={option.keywords}
                disabled={option.disabled}
                onSelect={() => {
                  onValueChange(option.value);
                  setOpen(false);
                  if (search) {
                    setSearch('');
                    onSearchChange?.('');
                  }
                }}
                className="flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 data-[disabled=true]:cursor-not-allowed data-[selected=true]:bg-slate-100 data-[disabled=true]:opacity-50"
              >
                <Check className={cn('mt-0.5 size-4 shrink-0 text-primary', option.value === value ? 'visible' : 'invisible')} aria-hidden="true" />
                <span className="min-w-0">
                  <span className="block truncate text-slate-900">{option.label}</span>
                  {option.description ? <span className="block text-xs text-slate-500">{option.description}</span> : null}
                </span>
              </Command.Item>
            ))}
          </Command.List>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
