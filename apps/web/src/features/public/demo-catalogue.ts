import demo from '@/i18n/en/demo.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('demo', demo);
