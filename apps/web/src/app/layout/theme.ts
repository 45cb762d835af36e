import { useEffect } from 'react';

/** Theme keys of seed 002 ("Pharmacy branding") and the CSS variables of index.css they set. */
const COLOUR_VARIABLES = {
  primaryColor: '--pp-primary',
  secondaryColor: '--pp-secondary',
  accentColor: '--pp-accent',
  backgroundColor: '--pp-background',
  headerColor: '--pp-header',
} as const;

export const DEFAULT_APP_TITLE = 'PharmaPoint';

/** Only plain colour values reach the stylesheet (a theme is tenant data). */
const COLOUR_PATTERN = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\))$/i;

export function themeTitle(theme: Record<string, unknown> | null | undefined, pharmacyName?: string | null): string {
  const title = theme?.appTitle;
  if (typeof title === 'string' && title.trim()) return title.trim();
  return pharmacyName?.trim() || DEFAULT_APP_TITLE;
}

/** Applies the pharmacy's colours as CSS variables and its appTitle as the document title. */
export function useApplyTheme(theme: Record<string, unknown> | null | undefined, pharmacyName?: string | null) {
  useEffect(() => {
    const root = document.documentElement;
    for (const [key, variable] of Object.entries(COLOUR_VARIABLES)) {
      const value = theme?.[key];
      if (typeof value === 'string' && COLOUR_PATTERN.test(value.trim())) root.style.setProperty(variable, value.trim());
      else root.style.removeProperty(variable);
    }
    document.title = theme ? themeTitle(theme, pharmacyName) : DEFAULT_APP_TITLE;
  }, [theme, pharmacyName]);
}
