import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The value as it was `delay` ms after its last change (one search per pause in typing, not one per key), and
 * `flush` to take the current value at once (Enter in a search box).
 */
export function useDebouncedValue<T>(value: T, delay: number): [T, () => void] {
  const [debounced, setDebounced] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  const flush = useCallback(() => setDebounced(latest.current), []);
  return [debounced, flush];
}
