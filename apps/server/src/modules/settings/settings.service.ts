import {
  applySecretInputs,
  changedSettingsSections,
  DEFAULT_SETTINGS,
  sanitizeSettings,
  secretsSet,
  SETTINGS_SECTION_PERMISSIONS,
  SETTINGS_SECTIONS,
  withoutSecrets,
  type Settings,
  type SettingsResponse,
  type SettingsSave,
  type SettingsSectionId,
} from '@pharmapoint/domain/settings';
import type { Queryable } from '../../db/database.ts';
import { holds, type RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import {
  activeBranchNames,
  findPharmacyName,
  findSettingsRow,
  findTimeZones,
  insertSettings,
  insertSettingsIfMissing,
  renamePharmacy,
  upsertSettings,
} from './settings.repository.ts';

/**
 * Sanitises a settings document for the tenant. The branch list always comes from the branches table (the
 * source of truth) and the default branch from its default flag; the rest from the document.
 */
async function sanitizeForTenant(q: Queryable, pharmacyId: string, document: unknown): Promise<Settings> {
  const branches = await activeBranchNames(q, pharmacyId);
  const base = document && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
  return sanitizeSettings(
    { ...base, branches: branches.names, ...(branches.defaultName ? { defaultBranch: branches.defaultName } : {}) },
    { branchName: branches.defaultName, locationName: undefined, branches: branches.names },
  );
}

/**
 * The tenant's whole settings document, secrets included (for the server's own use: never send it as it is),
 * creating the default document when there is none (seed 000: "create defaults").
 */
export async function loadSettings(q: Queryable, pharmacyId: string): Promise<{ settings: Settings; updatedAt: string | null }> {
  const row = await findSettingsRow(q, pharmacyId);
  if (row) return { settings: await sanitizeForTenant(q, pharmacyId, row.document), updatedAt: row.updated_at };
  const name = await findPharmacyName(q, pharmacyId);
  const settings = await sanitizeForTenant(q, pharmacyId, { ...DEFAULT_SETTINGS, ...(name ? { pharmacyName: name } : {}) });
  await insertSettingsIfMissing(q, pharmacyId, settings);
  return { settings, updatedAt: null };
}

/** The sections the caller may change. */
export function editableSections(ctx: Pick<RequestContext, 'subject'>): SettingsSectionId[] {
  return SETTINGS_SECTIONS.map((s) => s.id).filter((id) => holds(ctx, SETTINGS_SECTION_PERMISSIONS[id]));
}

function view(ctx: RequestContext, settings: Settings, updatedAt: string | null): SettingsResponse {
  return { settings: withoutSecrets(settings), updatedAt, secretsSet: secretsSet(settings), editableSections: editableSections(ctx) };
}

/** GET /api/settings: every member reads the document; nobody reads a secret, only whether it is set. */
export async function getSettings(q: Queryable, ctx: RequestContext): Promise<SettingsResponse> {
  const { settings, updatedAt } = await loadSettings(q, ctx.pharmacyId);
  return view(ctx, settings, updatedAt);
}

/**
 * PUT /api/settings: saves the whole document. Each section that changes needs its permission
 * (SETTINGS_SECTION_PERMISSIONS); a secret sent as '' keeps the stored one. The business name becomes the
 * pharmacy's name. The audit log keeps no secrets.
 */
export async function saveSettings(q: Queryable, ctx: RequestContext, input: SettingsSave): Promise<SettingsResponse & { message: string }> {
  const before = await loadSettings(q, ctx.pharmacyId);
  const next = await sanitizeForTenant(q, ctx.pharmacyId, applySecretInputs(input, before.settings));
  const refused = changedSettingsSections(before.settings, next).filter((id) => !holds(ctx, SETTINGS_SECTION_PERMISSIONS[id]));
  if (refused.length > 0) {
    throw new AppError('FORBIDDEN', {
      message: `You don't have permission to change these settings: ${refused.join(', ')}.`,
      details: { sections: refused, permissions: [...new Set(refused.map((id) => SETTINGS_SECTION_PERMISSIONS[id]))] },
    });
  }
  const updatedAt = await upsertSettings(q, ctx.pharmacyId, next, ctx.now, ctx.userId);
  const name = next.pharmacyName.trim();
  if (name) await renamePharmacy(q, ctx.pharmacyId, name, ctx.now);
  await audit(q, ctx, 'update', 'settings', null, withoutSecrets(before.settings), withoutSecrets(next));
  return { ...view(ctx, next, updatedAt), message: 'Settings saved successfully' };
}

/** The first settings document of a new pharmacy: the defaults with its name and branches. */
export async function createInitialSettings(
  q: Queryable,
  pharmacyId: string,
  input: { pharmacyName: string; branchNames: readonly string[]; userId: string | null; now: Date },
): Promise<void> {
  const names = [...input.branchNames];
  const settings = sanitizeSettings(
    { ...DEFAULT_SETTINGS, pharmacyName: input.pharmacyName, branches: names, defaultBranch: names[0] },
    { branchName: names[0], locationName: undefined, branches: names },
  );
  await insertSettings(q, pharmacyId, settings, input.now, input.userId);
}

/** Rewrites the settings' branch list and default branch after a branch changed (in the change's transaction). */
export async function syncSettingsBranches(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId' | 'userId' | 'now'>): Promise<void> {
  const { settings } = await loadSettings(q, ctx.pharmacyId);
  await upsertSettings(q, ctx.pharmacyId, await sanitizeForTenant(q, ctx.pharmacyId, settings), ctx.now, ctx.userId);
}

const FALLBACK_TIME_ZONE = DEFAULT_SETTINGS.timezone;

/** A time zone Intl knows, else the default one (Africa/Nairobi). */
function usableTimeZone(zone: string | null | undefined): string {
  if (!zone) return FALLBACK_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}

/** The pharmacies' time zones from their settings (for 'Active - Hosting until {date}'); the default when unusable. */
export async function pharmacyTimeZones(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, string>> {
  const found = await findTimeZones(q, pharmacyIds);
  return new Map(pharmacyIds.map((id) => [id, usableTimeZone(found.get(id))]));
}

/** One pharmacy's time zone (see pharmacyTimeZones). */
export async function pharmacyTimeZone(q: Queryable, pharmacyId: string): Promise<string> {
  return (await pharmacyTimeZones(q, [pharmacyId])).get(pharmacyId) ?? FALLBACK_TIME_ZONE;
}
