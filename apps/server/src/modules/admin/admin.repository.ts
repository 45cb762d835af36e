import type { Queryable } from '../../db/database.ts';

interface PharmacyRow {
  id: string;
  name: string;
  is_demo: boolean;
  owner_email: string | null;
  created_at: string;
}

export interface PlatformPharmacy {
  id: string;
  name: string;
  isDemo: boolean;
  ownerEmail: string | null;
  createdAt: string;
}

function toPlatformPharmacy(row: PharmacyRow): PlatformPharmacy {
  return { id: row.id, name: row.name, isDemo: row.is_demo, ownerEmail: row.owner_email, createdAt: row.created_at };
}

/** Every pharmacy of the platform, newest first (through the owner connection: across tenants). */
export async function findAllPharmacies(q: Queryable): Promise<PlatformPharmacy[]> {
  const rows = await q.query<PharmacyRow>(`SELECT id, name, is_demo, owner_email, created_at FROM pharmacies ORDER BY created_at DESC, id`);
  return rows.map(toPlatformPharmacy);
}
