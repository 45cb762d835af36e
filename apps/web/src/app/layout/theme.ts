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

/** Text colours for text on a theme colour. */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#0f172a';

/** sRGB channels 0..255 of #rgb, #rrggbb or rgb()/rgba(); null for anything else (hsl, named colours). */
export function parseColour(value: string): [number, number, number] | null {
  const v = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((c) => c + c).join('') : hex.slice(0, 6);
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(v);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])].map((n) => Math.min(255, n)) as [number, number, number];
  return null;
}

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours (1..21). */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** White text when it reaches 4.5:1 on the colour (WCAG AA), else near-black; white for colours it cannot read. */
export function readableText(background: string): string {
  const rgb = parseColour(background);
  if (!rgb) return LIGHT_TEXT;
  return contrastRatio(rgb, [255, 255, 255]) >= 4.5 ? LIGHT_TEXT : DARK_TEXT;
}

/** The text colour variables derived from a theme colour (index.css holds the defaults of the default theme). */
const FOREGROUND_VARIABLES = {
  primaryColor: { variable: '--pp-primary-foreground', fallback: '#2563eb' },
  secondaryColor: { variable: '--pp-secondary-foreground', fallback: '#10b981' },
} as const;

export function themeTitle(theme: Record<string, unknown> | null | undefined, pharmacyName?: string | null): string {
  const title = theme?.appTitle;
  if (typeof title === 'string' && title.trim()) return title.trim();
  return pharmacyName?.trim() || DEFAULT_APP_TITLE;
}

/** Applies the pharmacy's colours as CSS variables (the title is app/document-title.tsx's). */
export function useApplyTheme(theme: Record<string, unknown> | null | undefined) {
  useEffect(() => {
    const root = document.documentElement;
    for (const [key, variable] of Object.entries(COLOUR_VARIABLES)) {
      const value = theme?.[key];
      if (typeof value === 'string' && COLOUR_PATTERN.test(value.trim())) root.style.setProperty(variable, value.trim());
      else root.style.removeProperty(variable);
    }
    for (const [key, { variable, fallback }] of Object.entries(FOREGROUND_VARIABLES)) {
      const value = theme?.[key];
      const colour = typeof value === 'string' && COLOUR_PATTERN.test(value.trim()) ? value.trim() : fallback;
      root.style.setProperty(variable, readableText(colour));
    }
  }, [theme]);
}
