import { z } from 'zod';
import { routeTable, type RouteInfo } from '../src/app.ts';
import type { App } from '../src/app.ts';
import type { TestResponse } from './http.ts';

/** Every /api route of the app (with /health if any), HEAD routes of GET routes left out. */
export function apiRoutes(app: App): RouteInfo[] {
  return routeTable(app).filter((r) => r.url.startsWith('/api') || r.url.startsWith('/health'));
}

/** The path parameters of a route url (':id', ':branchId', '*'). */
export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!).concat(url.includes('*') ? ['*'] : []);
}

/** The url with its parameters filled in (every parameter with `value` unless `values` names it). */
export function fillPath(url: string, value: string, values: Record<string, string> = {}): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? value)).replace('*', 'x');
}

export const routeName = (r: Pick<RouteInfo, 'method' | 'url'>) => `${r.method} ${r.url}`;

/** The error format of ARCHITECTURE section 6, and nothing else at the top level. */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    message: z.string().min(1),
    values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    details: z.unknown().optional(),
  }),
});

/** Asserts the response is an error in the section 6 format with that status and code; returns its message. */
export function expectError(res: TestResponse, status: number, code: string, label = ''): string {
  const parsed = errorBodySchema.safeParse(res.body);
  if (res.status !== status || !parsed.success || parsed.data.error.code !== code) {
    throw new Error(`${label}: expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`);
  }
  return parsed.data.error.message;
}
