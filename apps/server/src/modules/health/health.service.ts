import { readFileSync } from 'node:fs';
import type { HealthResponse, ReadinessResponse } from '@pharmapoint/domain/health';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { kopokopoHealth } from '../payments/payments.service.ts';
import { ping } from './health.repository.ts';

/** The server's version, from its package.json, read once. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** How long the database may take to answer a health check before it counts as unreachable. */
export const DATABASE_TIMEOUT_MS = 2000;

/** The check's one round trip, in the route's transaction as the application role (the path every request takes). */
export async function databaseAnswers(q: Queryable): Promise<true> {
  await ping(q);
  return true;
}

/**
 * Did the check (the route's transaction running databaseAnswers) succeed within timeoutMs? A hung database counts
 * as unreachable rather than hanging the check; a failing one too.
 */
export async function answeredWithin(check: Promise<unknown>, timeoutMs = DATABASE_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check.then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health: alive (always answers), the version, whether the database answers, and the payment provider's state. */
export async function health(config: Config, database: Promise<boolean>): Promise<HealthResponse> {
  const [reachable, kopokopo] = await Promise.all([database, kopokopoHealth(config)]);
  return { status: reachable ? 'ok' : 'degraded', version: SERVER_VERSION, database: { reachable }, kopokopo };
}

/** GET /health/ready: ready to serve when the database answers. */
export async function readiness(database: Promise<boolean>): Promise<ReadinessResponse> {
  const reachable = await database;
  return { ready: reachable, database: { reachable } };
}
