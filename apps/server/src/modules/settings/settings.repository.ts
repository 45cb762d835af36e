import type { Queryable } from '../../db/database.ts';

/** What the tenant's settings are made of, read in one statement: the stored document as text, and the active branches. */
export interface SettingsSource {
  /** The stored document as PostgreSQL prints it (null: the pharmacy has none yet). */
  document: string | null;
  updated_at: string | null;
  /** The active branches' names, the default first. */
  branch_names: string[];
  /** Is the first of branch_names the default branch? */
  has_default: boolean;
}

/** The stored settings document and the active branches' names (the default first), in one round trip. */
export async function findSettingsSource(q: Queryable, pharmacyId: string): Promise<SettingsSource> {
  const [row] = await q.query<SettingsSource>(
    `SELECT s.document::text AS document, s.updated_at,
            ARRAY(SELECT b.name FROM branches b WHERE b.pharmacy_id = $1 AND b.is_active ORDER BY b.is_default DESC, b.name) AS branch_names,
            EXISTS (SELECT 1 FROM branches b WHERE b.pharmacy_id = $1 AND b.is_active AND b.is_default) AS has_default
       FROM (VALUES (1)) AS one (x) LEFT JOIN settings s ON s.pharmacy_id = $1`,
    [pharmacyId],
  );
  return row!;
}

/** The default document of a pharmacy that has none; a concurrent first read's document wins. */
export async function insertSettingsIfMissing(q: Queryable, pharmacyId: string, document: unknown): Promise<void> {
  await q.query(`INSERT INTO settings (pharmacy_id, document) VALUES ($1, $2) ON CONFLICT (pharmacy_id) DO NOTHING`, [
    pharmacyId,
    JSON.stringify(document),
  ]);
}

/** The first document of a new pharmacy. */
export async function insertSettings(q: Queryable, pharmacyId: string, document: unknown, at: Date, userId: string | null): Promise<void> {
  await q.query(`INSERT INTO settings (pharmacy_id, document, updated_at, updated_by) VALUES ($1, $2, $3, $4)`, [
    pharmacyId,
    JSON.stringify(document),
    at,
    userId,
  ]);
}

export async function upsertSettings(q: Queryable, pharmacyId: string, document: unknown, at: Date, userId: string | null): Promise<string> {
  const [row] = await q.query<{ updated_at: string }>(
    `INSERT INTO settings (pharmacy_id, document, updated_at, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (pharmacy_id) DO UPDATE SET document = EXCLUDED.document, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
     RETURNING updated_at`,
    [pharmacyId, JSON.stringify(document), at, userId],
  );
  return row!.updated_at;
}

/** The active branches' names, the default first, and the default's name: the settings' branch list comes from them. */
export async function activeBranchNames(q: Queryable, pharmacyId: string): Promise<{ names: string[]; defaultName: string | undefined }> {
  const rows = await q.query<{ name: string; is_default: boolean }>(
    `SELECT name, is_default FROM branches WHERE pharmacy_id = $1 AND is_active ORDER BY is_default DESC, name`,
    [pharmacyId],
  );
  return { names: rows.map((r) => r.name), defaultName: rows.find((r) => r.is_default)?.name };
}

export async function findPharmacyName(q: Queryable, pharmacyId: string): Promise<string | undefined> {
  const [row] = await q.query<{ name: string }>(`SELECT name FROM pharmacies WHERE id = $1`, [pharmacyId]);
  return row?.name;
}

/** The business name is the pharmacy's name (sidebar, /api/me, emails). */
export async function renamePharmacy(q: Queryable, pharmacyId: string, name: string, at: Date): Promise<void> {
  await q.query(`UPDATE pharmacies SET name = $2, updated_at = $3 WHERE id = $1 AND name <> $2`, [pharmacyId, name, at]);
}

/** The time zone stored in each pharmacy's settings (null when absent). */
export async function findTimeZones(q: Queryable, pharmacyIds: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await q.query<{ pharmacy_id: string; timezone: string | null }>(
    `SELECT pharmacy_id, document->>'timezone' AS timezone FROM settings WHERE pharmacy_id = ANY ($1::text[])`,
    [pharmacyIds],
  );
  return new Map(rows.map((row) => [row.pharmacy_id, row.timezone]));
}
