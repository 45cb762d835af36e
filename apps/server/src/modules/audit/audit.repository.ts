import { deferWrite, type Queryable } from '../../db/database.ts';

/** Who did it: enough of a request context to stamp an audit row. */
export interface AuditContext {
  pharmacyId: string;
  userId: string | null;
}

/**
 * Appends one row to the tenant's audit log in the caller's transaction, so the record exists exactly when
 * the change it describes commits. The row is written at the end of the transaction, in COMMIT's own round trip
 * (deferWrite, decision 0077): nothing reads the audit log inside the transaction that writes it.
 */
export async function insertAuditRow(
  q: Queryable,
  ctx: AuditContext,
  action: string,
  entity: string,
  entityId: string | null,
  before: unknown,
  after: unknown,
): Promise<void> {
  deferWrite(
    q,
    `INSERT INTO audit_log (pharmacy_id, user_id, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      ctx.pharmacyId,
      ctx.userId,
      action,
      entity,
      entityId,
      before === undefined || before === null ? null : JSON.stringify(before),
      after === undefined || after === null ? null : JSON.stringify(after),
    ],
  );
}
