import i18n from '@/i18n';

/**
 * Adds a screen's catalogue when the screen's code loads (a side-effect import of the feature's `catalogue.ts` in each
 * file that uses the namespace), so the first load of every other screen does not carry its text. It runs before the
 * screen renders, so no key ever flashes.
 */
export function registerCatalogue(namespace: string, catalogue: Record<string, unknown>): void {
  if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, catalogue);
}
