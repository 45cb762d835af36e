import users from '@/i18n/en/users.json';
import { registerCatalogue } from '@/i18n/register';

registerCatalogue('users', users);
