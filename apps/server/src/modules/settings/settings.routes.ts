import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settingsSchema } from '@pharmapoint/domain/settings';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { audit } from '../audit/audit.ts';
import { loadSettings, sanitizeForTenant, saveSettings } from './settings.repository.ts';

/** The pharmacy's settings document: every screen reads it, settings managers save it. */
export const registerSettings: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/settings', { config: { access: 'tenant' }, schema: { tags: ['settings'] } }, async (request) => {
    const ctx = requireContext(request);
    return db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) => loadSettings(q, ctx.pharmacyId));
  });

  r.put(
    '/api/settings',
    {
      config: { access: { anyOf: ['settings:system', 'settings:business'] } },
      schema: { tags: ['settings'], body: settingsSchema },
    },
    async (request) => {
      const ctx = requireContext(request);
      const settings = await db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
        const before = await loadSettings(q, ctx.pharmacyId);
        const next = await sanitizeForTenant(q, ctx.pharmacyId, request.body);
        await saveSettings(q, ctx.pharmacyId, next, ctx.userId);
        await audit(q, ctx, 'update', 'settings', null, before.settings, next);
        return next;
      });
      return { settings, message: 'Settings saved successfully' };
    },
  );
};
