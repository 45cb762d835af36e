import reportPages from '@/i18n/en/reportPages.json';
import { registerCatalogue } from '@/i18n/register';

/** The expenses, inventory, stock adjustments and stock transfers reports' catalogue, added when one of them loads. */
registerCatalogue('reportPages', reportPages);
