import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Request logging (issue 8 item 2): one concise line per request at info ('POST /api/stock/adjustments 201 14 ms'),
 * nothing for static files, the web app's pages and /health*, LOG_LEVEL to change the level, and pretty short lines
 * (pino-pretty, a dev dependency, loaded only when installed) when a person watches the terminal.
 */

/** Path parameters whose values never reach the log (an invitation's token in the path). */
const SECRET_PARAM = /token|secret|password|code/i;

/** Whether a request gets a line: API and dev-mailbox requests, and any other request that is not a plain page or file fetch. */
export function isLoggedRequest(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (path === '/health' || path.startsWith('/health/')) return false;
  // The API documentation's own files (Swagger UI's scripts and styles).
  if (path.startsWith('/api/docs/static/')) return false;
  if (path.startsWith('/api/') || path === '/api' || path.startsWith('/dev/')) return true;
  // Everything else is the built web app: its files and the single page answered for every screen.
  return request.method !== 'GET' && request.method !== 'HEAD';
}

/** The path as logged: the route's pattern with its parameters filled in, secret ones left as ':name'; no query string. */
export function loggedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (!pattern || !pattern.includes(':')) return request.url.split('?')[0] ?? request.url;
  return pattern.replace(/:(\w+)/g, (whole, name: string) =>
    SECRET_PARAM.test(name) || params[name] === undefined ? whole : encodeURIComponent(String(params[name])),
  );
}

/** Fastify's logger options: JSON lines (pid and hostname left out), or pretty single lines on a terminal. */
export async function loggerOptions(config: Config, options: { stream?: NodeJS.WritableStream; pretty?: boolean } = {}): Promise<FastifyServerOptions['logger']> {
  const base = { level: config.logLevel, base: null };
  if (options.stream) return { ...base, stream: options.stream };
  const pretty = options.pretty ?? Boolean(process.stdout.isTTY);
  if (pretty) {
    try {
      // A dev dependency: absent from a production install (npm ci --omit=dev), and then the lines stay JSON.
      const { default: pinoPretty } = await import('pino-pretty');
      return {
        ...base,
        stream: pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId,req,res,responseTime', singleLine: true }),
      };
    } catch {
      // Not installed: JSON lines.
    }
  }
  return base;
}

/**
 * Fastify's request lines replaced: nothing when a request comes in, and when it is answered one line
 * ('GET /api/products 200 12 ms') for the requests isLoggedRequest keeps, at error for a 5xx or a failed response.
 * Fastify's other lines (errors of its default handler, stream errors) stay as they are.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!isLoggedRequest(request)) return;
    const line = `${request.method} ${loggedPath(request)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else if (reply.statusCode >= 500) reply.log.error(line);
    else reply.log.info(line);
  }
}
