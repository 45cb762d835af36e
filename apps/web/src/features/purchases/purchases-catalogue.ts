import purchases from '@/i18n/en/purchases.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('purchases', purchases);
