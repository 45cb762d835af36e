import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '@/i18n/en/common.json';
import auth from '@/i18n/en/auth.json';
import shell from '@/i18n/en/shell.json';
import publicNs from '@/i18n/en/public.json';
import dashboard from '@/i18n/en/dashboard.json';
import manual from '@/i18n/en/manual.json';
import placeholders from '@/i18n/en/placeholders.json';
import settings from '@/i18n/en/settings.json';
import subscription from '@/i18n/en/subscription.json';
import products from '@/i18n/en/products.json';
import stock from '@/i18n/en/stock.json';
import reports from '@/i18n/en/reports.json';
import errors from '@/i18n/en/errors.json';
import checkout from '@/i18n/en/checkout.json';
import pos from '@/i18n/en/pos.json';
import posSearch from '@/i18n/en/posSearch.json';
import posClients from '@/i18n/en/posClients.json';
import suspended from '@/i18n/en/suspended.json';
import sales from '@/i18n/en/sales.json';
import contacts from '@/i18n/en/contacts.json';

/**
 * The catalogues, per language and namespace (one namespace per feature). Catalogues are imported statically:
 * they are small and a screen must never flash its keys. A Swahili catalogue is `sw: { common: swCommon, ... }`
 * plus 'sw' in supportedLanguages; screens do not change.
 */
export const resources = {
  en: {
    common,
    auth,
    shell,
    public: publicNs,
    dashboard,
    manual,
    placeholders,
    settings,
    subscription,
    products,
    stock,
    reports,
    pos,
    posSearch,
    posClients,
    suspended,
    sales,
    contacts,
    checkout,
    /** The server's error codes (packages/domain/src/errors.ts), for t('errors:CODE', values). */
    errors,
  },
} as const;

export const supportedLanguages = ['en'] as const;
const LANGUAGE_KEY = 'pp_language';

function initialLanguage(): string {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    if (stored && (supportedLanguages as readonly string[]).includes(stored)) return stored;
  } catch {
    // Storage can be unavailable (private mode); English is the default.
  }
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switch the language and remember it for the next visit. */
export function setLanguage(language: (typeof supportedLanguages)[number]): void {
  void i18n.changeLanguage(language);
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Not remembered; the switch still applies now.
  }
  document.documentElement.lang = language;
}

export default i18n;
