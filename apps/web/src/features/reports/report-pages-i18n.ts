import i18n from '@/i18n';
import reportPages from '@/i18n/en/reportPages.json';

/**
 * The 'reportPages' catalogue (the expenses, inventory, stock adjustments and stock transfers reports), added when
 * one of those lazy screens loads: kept out of the first load every screen shares (the till's budget).
 */
if (!i18n.hasResourceBundle('en', 'reportPages')) i18n.addResourceBundle('en', 'reportPages', reportPages);
