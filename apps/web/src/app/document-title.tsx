import { useEffect, useSyncExternalStore } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_APP_TITLE } from '@/app/layout/theme';

/**
 * The browser tab's title: '<screen> · <pharmacy title>' (e.g. 'Products · Afya Bora Pharmacy').
 * Each route names its screen in its handle ({ title: 'shell:titles.products' }, seen by <RouteTitle />); a screen
 * may name itself more precisely with useDocumentTitle (the product's name on its history). The pharmacy part is the
 * theme's app title, else the pharmacy's name, else PharmaPoint; a theme titleFormat with {page} and {product}
 * places both itself (docs/decisions/0032).
 */
export interface RouteHandle {
  /** An i18n key with its namespace: 'shell:titles.products'. */
  title?: string;
}

let siteTitle = DEFAULT_APP_TITLE;
let siteFormat: string | undefined;
let screenOverride: string | undefined;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
let version = 0;
const getVersion = () => version;

/** Composes the document title from the screen's and the pharmacy's titles. */
export function composeTitle(screen: string | undefined, product: string, format?: string): string {
  if (format && format.includes('{page}')) {
    const text = format.replaceAll('{page}', screen ?? '').replaceAll('{product}', product).replace(/^\s*[·|\-–—:]\s*|\s*[·|\-–—:]\s*$/g, '').trim();
    if (text) return text;
  }
  const site = format && format.includes('{product}') ? format.replaceAll('{product}', product).trim() || product : product;
  return screen ? `${screen} · ${site}` : site;
}

/** The pharmacy part of the title ('Initializing Afya Bora Pharmacy'). */
export function currentSiteTitle(): string {
  return siteTitle;
}

/** Set by the shell from the pharmacy theme (app title, name, titleFormat). */
export function setSiteTitle(title: string, format?: string): void {
  if (title === siteTitle && format === siteFormat) return;
  siteTitle = title;
  siteFormat = format;
  version += 1;
  notify();
}

/** A screen names itself (overrides its route's title while it is shown). */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    screenOverride = title;
    version += 1;
    notify();
    return () => {
      if (screenOverride === title) screenOverride = undefined;
      version += 1;
      notify();
    };
  }, [title]);
}

/** Rendered once at the root: writes document.title from the deepest route handle that names a title. */
export function RouteTitle() {
  const matches = useMatches();
  const { t } = useTranslation();
  useSyncExternalStore(subscribe, getVersion, getVersion);
  const key = [...matches].reverse().map((match) => (match.handle as RouteHandle | undefined)?.title).find(Boolean);
  const screen = screenOverride ?? (key ? t(key) : undefined);
  const title = composeTitle(screen, siteTitle, siteFormat);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
