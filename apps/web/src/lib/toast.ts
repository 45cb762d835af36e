import { toast as sonner, type ExternalToast } from 'sonner';
import type { ReactNode } from 'react';

/** Toast durations: 4 s by default, 3 s for success, 5 s for errors. Use this instead of sonner's `toast`. */
export const TOAST_DURATION = { default: 4000, success: 3000, error: 5000 } as const;

type Message = ReactNode;

/**
 * The same text shown again replaces the toast already on screen instead of stacking a copy (a busy counter
 * clicks twice); a caller's own id wins.
 */
const once = (kind: string, message: Message, data?: ExternalToast): ExternalToast | undefined =>
  typeof message === 'string' && data?.id === undefined ? { ...data, id: `${kind}:${message}` } : data;

export const toast = Object.assign((message: Message, data?: ExternalToast) => sonner(message, { duration: TOAST_DURATION.default, ...once('default', message, data) }), {
  success: (message: Message, data?: ExternalToast) => sonner.success(message, { duration: TOAST_DURATION.success, ...once('success', message, data) }),
  error: (message: Message, data?: ExternalToast) => sonner.error(message, { duration: TOAST_DURATION.error, ...once('error', message, data) }),
  info: (message: Message, data?: ExternalToast) => sonner.info(message, { duration: TOAST_DURATION.default, ...once('info', message, data) }),
  warning: (message: Message, data?: ExternalToast) => sonner.warning(message, { duration: TOAST_DURATION.default, ...once('warning', message, data) }),
  loading: (message: Message, data?: ExternalToast) => sonner.loading(message, data),
  dismiss: (id?: string | number) => sonner.dismiss(id),
  promise: sonner.promise,
});
