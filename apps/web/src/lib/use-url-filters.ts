import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Filters kept in the address bar (bookmarkable, shareable, kept on reload). `update` sets or clears (undefined,
 * null or '') several parameters at once and replaces the history entry; changing any filter but the page sends
 * the list back to its first page. `clear` drops every filter.
 */
export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { params, update, clear };
}
