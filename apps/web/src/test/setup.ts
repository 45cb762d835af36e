// Component tests (vitest project 'web-components', jsdom): the real English catalogues, a clean DOM per test.
import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import '@/i18n';
import { setSessionHint } from '@/lib/session-hint';

// jsdom has no layout: the few browser APIs Radix and cmdk call exist here as no-ops.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

// Screen tests render signed-in screens at jsdom's '/' address: the app asks /api/me only with a session hint.
beforeEach(() => setSessionHint(true));
afterEach(() => cleanup());
