import type { ReactNode } from 'react';
import * as TabsPrimitive from '@radix-ui/react-tabs';
import { cn } from '@/lib/cn';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  items: readonly TabItem[];
  /** The selected tab id (controlled). */
  value: string;
  onValueChange: (id: string) => void;
  /** Accessible name of the tab list. */
  label: string;
  className?: string;
}

/**
 * WAI-ARIA tabs on Radix: arrow keys, Home and End move between tabs (and select them); only the active tab is in
 * the tab order, and only the active panel is rendered.
 */
export function Tabs({ items, value, onValueChange, label, className }: TabsProps) {
  return (
    <TabsPrimitive.Root value={value} onValueChange={onValueChange} className={className} activationMode="automatic">
      <TabsPrimitive.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {items.map((item) => (
          <TabsPrimitive.Trigger
            key={item.id}
            value={item.id}
            disabled={item.disabled}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-4 py-2 text-sm font-medium disabled:opacity-50',
              'border-transparent text-slate-600 hover:text-slate-900 data-[state=active]:border-primary data-[state=active]:text-primary',
            )}
          >
            {item.label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {items.map((item) => (
        <TabsPrimitive.Content key={item.id} value={item.id} className="pt-4 focus:outline-none">
          {item.content}
        </TabsPrimitive.Content>
      ))}
    </TabsPrimitive.Root>
  );
}
