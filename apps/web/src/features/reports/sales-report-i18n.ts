import salesReport from '@/i18n/en/salesReport.json';
import { registerCatalogue } from '@/i18n/register';

/** The sales report's catalogue, added when its lazy page loads. */
registerCatalogue('salesReport', salesReport);
