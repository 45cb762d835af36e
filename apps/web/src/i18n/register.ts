import i18n from 'i18next';

/**
 * Adds a screen's catalogue when the screen's code loads (a side-effect import of the feature's catalogue module in
 * each file that uses the namespace), so the first load of every other screen does not carry its text. It runs
 * before the screen renders, so no key ever flashes. The instance is i18next's own, which the shell initialised
 * (importing '@/i18n' here would pull the shell's catalogues into the screen's chunk).
 */
export function registerCatalogue(namespace: string, catalogue: Record<string, unknown>): void {
  if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, catalogue);
}
