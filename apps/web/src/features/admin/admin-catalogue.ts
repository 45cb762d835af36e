import admin from '@/i18n/en/admin.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('admin', admin);
