import { useEffect, useRef } from 'react';

export interface TillKeyHandlers {
  onSearch: () => void;
  onCustomer: () => void;
  onPay: () => void;
  onComplete: () => void;
  onSuspend?: () => void;
  onQuantity: () => void;
  onClear: () => void;
  /** A code typed by a barcode scanner while the focus is not in a text box: true when it was a product. */
  onCode: (code: string) => boolean;
  /** Off while a dialog has the keyboard. */
  enabled: boolean;
}

/** Keystrokes closer together than this are a scanner, not a person. */
export const SCANNER_GAP_MS = 35;
/** The shortest code a scanner sends. */
export const SCANNER_MIN_LENGTH = 3;

function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * The till's keyboard (decision 0026): F2 search, F4 customer, F8 pay, F9 complete, F10 suspend, Ctrl+Q the last
 * line's quantity, Ctrl+Delete clear the cart; and a USB or Bluetooth barcode scanner — keystrokes arriving faster
 * than a person types, ending in Enter — while the focus is anywhere but a text box (in the search box the box
 * handles it itself).
 */
export function useTillKeys(handlers: TillKeyHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const buffer = useRef<{ text: string; last: number }>({ text: '', last: 0 });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const h = latest.current;
      if (!h.enabled) return;
      const key = event.key;
      const shortcut =
        key === 'F2' ? h.onSearch : key === 'F4' ? h.onCustomer : key === 'F8' ? h.onPay : key === 'F9' ? h.onComplete : key === 'F10' ? h.onSuspend : undefined;
      if (shortcut) {
        event.preventDefault();
        shortcut();
        return;
      }
      if (event.ctrlKey && !event.altKey && (key === 'q' || key === 'Q')) {
        event.preventDefault();
        h.onQuantity();
        return;
      }
      if (event.ctrlKey && key === 'Delete') {
        event.preventDefault();
        h.onClear();
        return;
      }
      if (isTextTarget(event.target) || event.ctrlKey || event.altKey || event.metaKey) {
        buffer.current = { text: '', last: 0 };
        return;
      }
      const now = event.timeStamp;
      const b = buffer.current;
      if (key === 'Enter') {
        const code = b.text;
        buffer.current = { text: '', last: 0 };
        if (code.length >= SCANNER_MIN_LENGTH && h.onCode(code)) event.preventDefault();
        return;
      }
      if (key.length !== 1) return;
      buffer.current = { text: b.last && now - b.last < SCANNER_GAP_MS ? b.text + key : key, last: now };
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
