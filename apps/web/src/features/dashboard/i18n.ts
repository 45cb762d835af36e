import { getI18n } from 'react-i18next';
import overview from '@/i18n/en/overview.json';

/**
 * The dashboard's sales overview and cards have their own namespace, registered when the dashboard's chunk loads:
 * the shell's statically imported catalogues are part of every screen's first load (the till's and the sign-in
 * page's budgets), and these strings are only ever read on the dashboard. The instance is the one the shell set up
 * (react-i18next's), not an import of '@/i18n', which would split the shell's entry chunk.
 */
export const OVERVIEW_NS = 'overview';
const i18n = getI18n();
if (!i18n.hasResourceBundle('en', OVERVIEW_NS)) i18n.addResourceBundle('en', OVERVIEW_NS, overview);
