import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SETTINGS_SAVE_PERMISSIONS,
  settingsResponseSchema,
  settingsSaveResponseSchema,
  settingsSaveSchema,
} from '@pharmapoint/domain/settings';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { getSettings, saveSettings } from './settings.service.ts';

/**
 * The pharmacy's settings document: every screen reads it (integration secrets never leave the server: GET says
 * whether each is set); a save needs the permission of each section it changes (docs/decisions/0012).
 */
export const registerSettings: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/settings',
    {
      config: { access: 'tenant' },
      schema: { tags: ['settings'], summary: 'The settings document, without secret values', response: { 200: settingsResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getSettings(q, ctx)),
  );

  r.put(
    '/api/settings',
    {
      config: { access: { anyOf: SETTINGS_SAVE_PERMISSIONS } },
      schema: {
        tags: ['settings'],
        summary: "Save the settings document (each changed section needs its permission; a secret sent as '' is kept)",
        body: settingsSaveSchema,
        response: { 200: settingsSaveResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => saveSettings(q, ctx, request.body)),
  );
};
