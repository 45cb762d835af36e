import { createContext, useContext, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_SETTINGS, type Settings, type SettingsResponse } from '@pharmapoint/domain/settings';
import { api } from '@/lib/api';
import { setFormatLocale } from '@/lib/format';

/**
 * The pharmacy's settings as the shell uses them (every member may read GET /api/settings): display settings for
 * the layout, header and dashboard, and the locale for formatting. The query key is the settings screen's, so a
 * save there refreshes the shell at once. The last answer is kept in localStorage so the next visit starts with
 * it instead of flashing the defaults.
 */
export const settingsQueryKey = ['settings'] as const;
const STORAGE_KEY = 'pp_display_settings';

export interface ShellSettings {
  displaySettings: Settings['displaySettings'];
  pharmacyTagline: string;
  dateFormat: string;
  numberFormat: string;
  timezone: string;
}

export function shellSettingsOf(settings: Settings): ShellSettings {
  return {
    displaySettings: settings.displaySettings,
    pharmacyTagline: settings.pharmacyTagline,
    dateFormat: settings.dateFormat,
    numberFormat: settings.numberFormat,
    timezone: settings.timezone,
  };
}

const DEFAULTS = shellSettingsOf(DEFAULT_SETTINGS);

function remembered(pharmacyId: string | undefined): ShellSettings | undefined {
  if (!pharmacyId) return undefined;
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { pharmacyId?: string; settings?: ShellSettings } | null;
    if (stored?.pharmacyId !== pharmacyId || !stored.settings) return undefined;
    return { ...DEFAULTS, ...stored.settings, displaySettings: { ...DEFAULTS.displaySettings, ...stored.settings.displaySettings } };
  } catch {
    return undefined;
  }
}

/** The shell's settings of the signed-in pharmacy (defaults until they arrive, or for no pharmacy). */
export function useShellSettings(pharmacyId: string | undefined): ShellSettings {
  const query = useQuery({
    queryKey: settingsQueryKey,
    queryFn: () => api.get<SettingsResponse>('/api/settings'),
    enabled: Boolean(pharmacyId),
    staleTime: 60_000,
  });
  const loaded = query.data ? shellSettingsOf(query.data.settings) : undefined;
  const data = query.data;
  useEffect(() => {
    if (!data || !pharmacyId) return;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ pharmacyId, settings: shellSettingsOf(data.settings) }));
    } catch {
      // Storage unavailable: the next visit starts from the defaults.
    }
  }, [data, pharmacyId]);
  const settings = loaded ?? remembered(pharmacyId) ?? DEFAULTS;
  // Formatting follows the pharmacy at once (before the screens below render).
  setFormatLocale({ dateFormat: settings.dateFormat, numberFormat: settings.numberFormat, timezone: settings.timezone });
  return settings;
}

/** Provided by the signed-in layout; screens read the display settings with useShellSettingsContext(). */
export const ShellSettingsContext = createContext<ShellSettings>(DEFAULTS);

export function useShellSettingsContext(): ShellSettings {
  return useContext(ShellSettingsContext);
}
