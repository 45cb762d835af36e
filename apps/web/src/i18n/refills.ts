import refills from '@/i18n/en/refills.json';
import { registerCatalogue } from '@/i18n/register';

/** The refills catalogue, added by the screens that use it (the refill alerts, the consent switch of the till's refill
 * dialog and the contact page). */
registerCatalogue('refills', refills);
