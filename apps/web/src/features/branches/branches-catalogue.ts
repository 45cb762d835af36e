import branches from '@/i18n/en/branches.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('branches', branches);
