import type { Queryable } from '../../db/database.ts';
import type { RequestContext } from '../../platform/context.ts';
import { insertAuditRow } from './audit.repository.ts';

/**
 * Records who changed what in the tenant's audit log, in the caller's transaction, so the record exists exactly
 * when the change it describes commits. The context may be a request's, or (pharmacy creation, sign-in) just the
 * tenant and the user.
 */
export async function audit(
  q: Queryable,
  ctx: Pick<RequestContext, 'pharmacyId'> & { userId: string | null },
  action: string,
  entity: string,
  entityId: string | null,
  before: unknown,
  after: unknown,
): Promise<void> {
  await insertAuditRow(q, ctx, action, entity, entityId, before, after);
}
