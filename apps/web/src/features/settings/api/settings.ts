import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsResponse, SettingsSave } from '@pharmapoint/domain/settings';
import type { Theme } from '@pharmapoint/domain/tenancy';
import { api } from '@/lib/api';
import { meQueryKey } from '@/features/auth/api/get-me';

export const settingsQueryKey = ['settings'] as const;
export const themeQueryKey = ['pharmacy-theme'] as const;

/**
 * GET /api/settings: the sanitised document without secret values (each secret is '' and secretsSet says whether
 * it is stored), and the sections the user may change. Saving a secret as '' keeps the stored one.
 */
export type { SettingsResponse };

/** The pharmacy theme and receipt branding (PUT /api/pharmacy/theme). */
export type { Theme };

export function useSettings() {
  return useQuery({ queryKey: settingsQueryKey, queryFn: () => api.get<SettingsResponse>('/api/settings') });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: SettingsSave) => api.put<SettingsResponse & { message: string }>('/api/settings', settings),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: settingsQueryKey });
    },
  });
}

export function useTheme(enabled: boolean) {
  return useQuery({ queryKey: themeQueryKey, queryFn: () => api.get<{ theme: Theme }>('/api/pharmacy/theme'), enabled });
}

export function useSaveTheme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (theme: Theme) => api.put<{ theme: Theme }>('/api/pharmacy/theme', theme),
    onSuccess: async () => {
      // The shell applies pharmacy.theme from /api/me: refreshing it applies the new theme at once.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: themeQueryKey }),
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]);
    },
  });
}
