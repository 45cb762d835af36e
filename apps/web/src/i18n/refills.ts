import i18n from 'i18next';
import refills from '@/i18n/en/refills.json';

/**
 * The refills catalogue, added by the screens that use it when they load (the refill alerts, the consent switch of
 * the till's refill dialog and the contact page), so the till's first load does not carry it.
 */
if (!i18n.hasResourceBundle('en', 'refills')) i18n.addResourceBundle('en', 'refills', refills);
