import i18n from 'i18next';
import salesReport from '@/i18n/en/salesReport.json';

/**
 * The sales report's catalogue, added when its lazy page loads (before it renders, so no key ever shows): the
 * catalogues in i18n/index.ts are part of every first load, the till's included, and this one is needed only here.
 */
if (!i18n.hasResourceBundle('en', 'salesReport')) i18n.addResourceBundle('en', 'salesReport', salesReport);
