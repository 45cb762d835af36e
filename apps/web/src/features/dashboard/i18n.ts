import overview from '@/i18n/en/overview.json';
import { registerCatalogue } from '@/i18n/register';

/** The dashboard's sales overview and cards: their own namespace, added when the dashboard's chunk loads. */
export const OVERVIEW_NS = 'overview';
registerCatalogue(OVERVIEW_NS, overview);
