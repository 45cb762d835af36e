import { readFileSync } from 'node:fs';
import type { HealthResponse, ReadinessResponse } from '@pharmapoint/domain/health';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { kopokopoHealth } from '../payments/payments.service.ts';
import { runTransaction } from '../../platform/transaction.ts';
import { ping } from './health.repository.ts';

/** The server's version, from its package.json, read once. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** How long the database may take to answer a health check before it counts as unreachable. */
export const DATABASE_TIMEOUT_MS = 2000;

/**
 * Does the database answer, as the application role in a transaction (the path every request takes), within
 * DATABASE_TIMEOUT_MS? A hung database counts as unreachable rather than hanging the check.
 */
export async function databaseReachable(db: Database, timeoutMs = DATABASE_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([runTransaction(db, {}, ping).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health: alive (always answers), the version, whether the database answers, and the payment provider's state. */
export async function health(db: Database, config: Config): Promise<HealthResponse> {
  const [reachable, kopokopo] = await Promise.all([databaseReachable(db), kopokopoHealth(config)]);
  return { status: reachable ? 'ok' : 'degraded', version: SERVER_VERSION, database: { reachable }, kopokopo };
}

/** GET /health/ready: ready to serve when the database answers. */
export async function readiness(db: Database): Promise<ReadinessResponse> {
  const reachable = await databaseReachable(db);
  return { ready: reachable, database: { reachable } };
}
