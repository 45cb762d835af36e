import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** A whole number from a search parameter within [min, max], else undefined. */
export function intParam(value: string | null, min: number, max: number): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/** The list page a search parameter names (1 when it names none, or not a page). */
export function pageParam(params: URLSearchParams): number {
  return intParam(params.get('page'), 1, 1_000_000) ?? 1;
}

/**
 * Filters kept in the address bar (bookmarkable, shareable, kept on reload). `update` sets or clears (undefined,
 * null or '') several parameters at once and replaces the history entry; changing any filter but the page sends
 * the list back to its first page. `clear` drops every filter.
 *
 * Each change starts from the latest parameters: those the router last rendered, or those the last change asked for
 * when the router has not rendered them yet. react-router's own functional setSearchParams starts from the parameters
 * of the render that made the setter, so a change made through a setter an older render kept (a memoised table
 * header), or two changes before the next render, dropped the other: sorting right after choosing a category lost the
 * category (an e2e run on a slow machine caught it).
 */
export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const rendered = useRef(params);
  if (rendered.current !== params) {
    rendered.current = params;
    latest.current = params;
  }
  const setter = useRef(setParams);
  setter.current = setParams;
  const apply = useCallback((next: URLSearchParams) => {
    latest.current = next;
    setter.current(next, { replace: true });
  }, []);
  const update = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      if (!('page' in changes)) next.delete('page');
      apply(next);
    },
    [apply],
  );
  const clear = useCallback(() => apply(new URLSearchParams()), [apply]);
  return { params, update, clear };
}
