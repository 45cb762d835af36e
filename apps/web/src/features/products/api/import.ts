import type { ImportMapping, ImportMode, ImportProgress, ImportResult, ImportStreamLine } from '@pharmapoint/domain/product-import';
import { ApiError, NETWORK_ERROR_MESSAGE } from '@/lib/api';

/** The CSV template (GET /api/products/import/template). */
export const IMPORT_TEMPLATE_HREF = '/api/products/import/template';

function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === 'pp_csrf') return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * POST /api/products/import with Accept: application/x-ndjson: the server streams progress lines, then one
 * { type: 'result' } line (or { type: 'error' }). A refusal before the stream began (400, 403, 413...) is a
 * plain JSON error. Resolves with the result; throws ApiError.
 */
export async function runImport(
  csv: string,
  options: { mode: ImportMode; dryRun: boolean; mapping: ImportMapping; signal?: AbortSignal },
  onProgress: (progress: ImportProgress) => void,
): Promise<ImportResult> {
  const params = new URLSearchParams({ mode: options.mode, dryRun: String(options.dryRun), mapping: JSON.stringify(options.mapping) });
  const headers: Record<string, string> = { Accept: 'application/x-ndjson', 'Content-Type': 'text/csv; charset=utf-8' };
  const csrf = csrfToken();
  if (csrf) headers['x-csrf-token'] = csrf;
  let response: Response;
  try {
    response = await fetch(`/api/products/import?${params.toString()}`, { method: 'POST', credentials: 'same-origin', headers, body: csv, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('ndjson')) {
    const text = await response.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const envelope = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new ApiError(response.status, envelope?.code ?? `HTTP_${response.status}`, envelope?.message ?? response.statusText, envelope?.details);
    }
    return data as ImportResult;
  }

  const reader = response.body?.getReader();
  if (!reader) throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  const decoder = new TextDecoder();
  let buffer = '';
  let result: ImportResult | null = null;
  const handle = (line: string) => {
    if (!line.trim()) return;
    const message = JSON.parse(line) as ImportStreamLine;
    if (message.type === 'progress') onProgress(message);
    else if (message.type === 'result') {
      const { type: _type, ...rest } = message;
      result = rest;
    } else if (message.type === 'error') throw new ApiError(400, message.error.code, message.error.message, message.error.details);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      handle(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
    if (done) break;
  }
  handle(buffer);
  if (!result) throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  return result;
}
