import type { ComponentProps } from 'react';
import * as PopoverPrimitive from '@radix-ui/react-popover';
import { cn } from '@/lib/cn';

/** Radix popover: `<Popover open? onOpenChange?><PopoverTrigger asChild>..</PopoverTrigger><PopoverContent>..</PopoverContent></Popover>`. */
export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverAnchor = PopoverPrimitive.Anchor;

/** The floating panel, in a portal, at least as wide as its trigger; Escape and an outside click close it. */
export function PopoverContent({ className, align = 'start', sideOffset = 4, ...rest }: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        align={align}
        sideOffset={sideOffset}
        className={cn(
          'z-50 min-w-[var(--radix-popover-trigger-width)] rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none',
          className,
        )}
        {...rest}
      />
    </PopoverPrimitive.Portal>
  );
}
