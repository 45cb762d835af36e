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
import { businessDate } from '@pharmapoint/domain/stock';
import type { Queryable } from '../../db/database.ts';
import { holds, type RequestContext } from '../../platform/access.ts';
import { AppError } from '../../platform/errors.ts';
import { audit } from '../audit/audit.service.ts';
import {
  activeBranchNames,
  findPharmacyName,
  findSettingsSource,
  findTimeZones,
  insertSettings,
  insertSettingsIfMissing,
  renamePharmacy,
  upsertSettings,
} from './settings.repository.ts';

type TenantBranches = { names: string[]; defaultName: string | undefined };

/** A settings document sanitised for the tenant with its branches (the list and the default come from the table). */
function sanitizeWithBranches(document: unknown, branches: TenantBranches): Settings {
  const base = document && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
  return sanitizeSettings(
    { ...base, branches: branches.names, ...(branches.defaultName ? { defaultBranch: branches.defaultName } : {}) },
    { branchName: branches.defaultName, locationName: undefined, branches: branches.names },
  );
}

/**
 * Sanitises a settings document for the tenant. The branch list always comes from the branches table (the
 * source of truth) and the default branch from its default flag; the rest from the document.
 */
async function sanitizeForTenant(q: Queryable, pharmacyId: string, document: unknown): Promise<Settings> {
  return sanitizeWithBranches(document, await activeBranchNames(q, pharmacyId));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as Record<string, unknown>)) deepFreeze(inner);
  }
  return value;
}

/**
 * The last sanitised settings of each pharmacy on this instance, by the exact stored text and branch list they were
 * made from (decision 0075): a sale, a purchase or a till payment reads the document in its transaction as before,
 * but parses and sanitises it only when it differs from the last one. Frozen: callers never change it.
 */
const sanitizedSettings = new Map<string, { source: string; settings: Settings }>();
const SANITIZED_SETTINGS_MAX = 1000;

function sanitizedOnce(pharmacyId: string, text: string, branches: TenantBranches): Settings {
  const source = `${branches.defaultName ?? ''}\u0000${branches.names.join('\u0000')}\u0000${text}`;
  const kept = sanitizedSettings.get(pharmacyId);
  if (kept && kept.source === source) return kept.settings;
  const settings = deepFreeze(sanitizeWithBranches(JSON.parse(text) as unknown, branches));
  sanitizedSettings.delete(pharmacyId);
  if (sanitizedSettings.size >= SANITIZED_SETTINGS_MAX) sanitizedSettings.delete(sanitizedSettings.keys().next().value!);
  sanitizedSettings.set(pharmacyId, { source, settings });
  return settings;
}

/**
 * The tenant's whole settings document, secrets included (for the server's own use: never send it as it is),
 * creating the default document when there is none (seed 000: "create defaults"). The document and the branches
 * are read in one statement; the answer is frozen.
 */
export async function loadSettings(q: Queryable, pharmacyId: string): Promise<{ settings: Settings; updatedAt: string | null }> {
  const source = await findSettingsSource(q, pharmacyId);
  const branches: TenantBranches = { names: source.branch_names, defaultName: source.has_default ? source.branch_names[0] : undefined };
  if (source.document !== null) return { settings: sanitizedOnce(pharmacyId, source.document, branches), updatedAt: source.updated_at };
  const name = await findPharmacyName(q, pharmacyId);
  const settings = sanitizeWithBranches({ ...DEFAULT_SETTINGS, ...(name ? { pharmacyName: name } : {}) }, branches);
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
const knownTimeZones = new Set<string>();

function usableTimeZone(zone: string | null | undefined): string {
  if (!zone) return FALLBACK_TIME_ZONE;
  if (knownTimeZones.has(zone)) return zone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    if (knownTimeZones.size < 1000) knownTimeZones.add(zone);
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

/** The time zone of settings already loaded (loadSettings): no second read. */
export function settingsTimeZone(settings: Pick<Settings, 'timezone'>): string {
  return usableTimeZone(settings.timezone);
}

/** One pharmacy's time zone (see pharmacyTimeZones). */
export async function pharmacyTimeZone(q: Queryable, pharmacyId: string): Promise<string> {
  return (await pharmacyTimeZones(q, [pharmacyId])).get(pharmacyId) ?? FALLBACK_TIME_ZONE;
}

/**
 * The pharmacy's business date at the request's clock: businessDate in its own time zone (one read of the settings'
 * zone). A use case that has read the settings already uses businessDate(ctx.now, settingsTimeZone(settings)).
 */
export async function pharmacyToday(q: Queryable, ctx: Pick<RequestContext, 'pharmacyId' | 'now'>): Promise<string> {
  return businessDate(ctx.now, await pharmacyTimeZone(q, ctx.pharmacyId));
}
