import debug from '@/i18n/en/debug.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('debug', debug);
