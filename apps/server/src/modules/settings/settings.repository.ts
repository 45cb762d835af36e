import { DEFAULT_SETTINGS, sanitizeSettings, type Settings } from '@pharmapoint/domain/settings';
import type { Queryable } from '../../db/database.ts';

interface BranchNames {
  names: string[];
  defaultName: string | undefined;
}

async function activeBranchNames(q: Queryable, pharmacyId: string): Promise<BranchNames> {
  const rows = await q.query<{ name: string; is_default: boolean }>(
    `SELECT name, is_default FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, name`,
    [pharmacyId],
  );
  return { names: rows.map((r) => r.name), defaultName: rows.find((r) => r.is_default)?.name };
}

/**
 * Sanitises a settings document for the tenant. The branch list always comes from the branches table (the
 * source of truth) and the default branch from its default flag; the rest from the document.
 */
export async function sanitizeForTenant(q: Queryable, pharmacyId: string, document: unknown): Promise<Settings> {
  const branches = await activeBranchNames(q, pharmacyId);
  const base = document && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
  return sanitizeSettings(
    { ...base, branches: branches.names, ...(branches.defaultName ? { defaultBranch: branches.defaultName } : {}) },
    { branchName: branches.defaultName, locationName: undefined, branches: branches.names },
  );
}

/** The tenant's settings, creating the default document when there is none (seed 000: "create defaults"). */
export async function loadSettings(q: Queryable, pharmacyId: string): Promise<{ settings: Settings; updatedAt: string | null }> {
  const [row] = await q.query<{ document: unknown; updated_at: Date | string }>(
    `SELECT document, updated_at FROM settings WHERE pharmacy_id = $1`,
    [pharmacyId],
  );
  if (row) return { settings: await sanitizeForTenant(q, pharmacyId, row.document), updatedAt: new Date(row.updated_at).toISOString() };
  const [pharmacy] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  const settings = await sanitizeForTenant(q, pharmacyId, { ...DEFAULT_SETTINGS, ...(pharmacy ? { pharmacyName: pharmacy.name } : {}) });
  await q.query(`INSERT INTO settings (pharmacy_id, document) VALUES ($1, $2) ON CONFLICT (pharmacy_id) DO NOTHING`, [
    pharmacyId,
    JSON.stringify(settings),
  ]);
  return { settings, updatedAt: null };
}

export async function saveSettings(q: Queryable, pharmacyId: string, settings: Settings, userId: string | null): Promise<void> {
  await q.query(
    `INSERT INTO settings (pharmacy_id, document, updated_at, updated_by) VALUES ($1, $2, now(), $3)
     ON CONFLICT (pharmacy_id) DO UPDATE SET document = EXCLUDED.document, updated_at = now(), updated_by = EXCLUDED.updated_by`,
    [pharmacyId, JSON.stringify(settings), userId],
  );
}

/** Rewrites the settings' branch list and default branch after a branch changed. */
export async function syncSettingsBranches(q: Queryable, pharmacyId: string, userId: string | null): Promise<void> {
  const { settings } = await loadSettings(q, pharmacyId);
  await saveSettings(q, pharmacyId, await sanitizeForTenant(q, pharmacyId, settings), userId);
}
