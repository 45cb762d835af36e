import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SECRET_SETTINGS_FIELDS, settingsSchema, type Settings } from '@pharmapoint/domain/settings';
import { holdsAny, type RequestContext } from '../../platform/access.ts';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { audit } from '../audit/audit.service.ts';
import { loadSettings, sanitizeForTenant, saveSettings } from './settings.repository.ts';

/** Who may save settings, and so see the integration secrets (seed 000 section 6: settings:business or settings:system). */
const SETTINGS_MANAGER_PERMISSIONS = ['settings:system', 'settings:business'] as const;

function managesSettings(ctx: RequestContext): boolean {
  return holdsAny(ctx, SETTINGS_MANAGER_PERMISSIONS);
}

/** The document with every secret field (SECRET_SETTINGS_FIELDS) blanked, for readers who do not manage settings. */
export function withoutSecrets(settings: Settings): Settings {
  const copy = structuredClone(settings) as unknown as Record<string, unknown>;
  for (const path of SECRET_SETTINGS_FIELDS) {
    const keys = path.split('.');
    let node: Record<string, unknown> | undefined = copy;
    for (const key of keys.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
    const last = keys[keys.length - 1]!;
    if (node && typeof node[last] === 'string') node[last] = '';
  }
  return copy as unknown as Settings;
}

/** The pharmacy's settings document: every screen reads it (secrets only for settings managers), settings managers save it. */
export const registerSettings: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/settings', { config: { access: 'tenant' }, schema: { tags: ['settings'] } }, async (request) => {
    const ctx = requireContext(request);
    const loaded = await db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, (q) => loadSettings(q, ctx.pharmacyId));
    const secretsHidden = !managesSettings(ctx);
    return { ...loaded, settings: secretsHidden ? withoutSecrets(loaded.settings) : loaded.settings, secretsHidden };
  });

  r.put(
    '/api/settings',
    {
      config: { access: { anyOf: SETTINGS_MANAGER_PERMISSIONS } },
      schema: { tags: ['settings'], body: settingsSchema },
    },
    async (request) => {
      const ctx = requireContext(request);
      const settings = await db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
        const before = await loadSettings(q, ctx.pharmacyId);
        const next = await sanitizeForTenant(q, ctx.pharmacyId, request.body);
        await saveSettings(q, ctx.pharmacyId, next, ctx.userId);
        // The business name is the pharmacy's name: the sidebar, /api/me and emails show the saved one.
        const name = next.pharmacyName.trim();
        if (name) await q.query(`UPDATE pharmacies SET name = $2, updated_at = now() WHERE id = $1 AND name <> $2`, [ctx.pharmacyId, name]);
        // The audit log keeps no secrets: its readers need not be settings managers.
        await audit(q, ctx, 'update', 'settings', null, withoutSecrets(before.settings), withoutSecrets(next));
        return next;
      });
      return { settings, message: 'Settings saved successfully' };
    },
  );
};
