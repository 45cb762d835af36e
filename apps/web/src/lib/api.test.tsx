import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import i18n from '@/i18n';
import { api, ApiError } from '@/lib/api';
import { server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  i18n.removeResourceBundle('sw', 'errors');
  await i18n.changeLanguage('en');
});
afterAll(() => server.close());

/** What api.post throws when the server answers `body` with `status`. */
async function failure(status: number, body: Record<string, string | number | Record<string, unknown>>): Promise<ApiError> {
  server.use(http.post('/api/things', () => HttpResponse.json(body, { status })));
  const error = await api.post('/api/things', {}).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('errors from the server', () => {
  it("show the catalogue's sentence for the code, with its values", async () => {
    const error = await failure(403, { error: { code: 'LIMIT_EXCEEDED', message: 'Limit exceeded. Plan allows 3, current usage: 3', values: { limit: 3, usage: 3 } } });
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.values).toEqual({ limit: 3, usage: 3 });
    expect(error.message).toBe('Limit exceeded. Plan allows 3, current usage: 3');

    // In another language the same answer reads in that language.
    i18n.addResourceBundle('sw', 'errors', { LIMIT_EXCEEDED: 'Kikomo kimefikiwa: {{usage}} kati ya {{limit}}' });
    await i18n.changeLanguage('sw');
    const translated = await failure(403, { error: { code: 'LIMIT_EXCEEDED', message: 'Limit exceeded. Plan allows 3, current usage: 2', values: { limit: 3, usage: 2 } } });
    expect(translated.message).toBe('Kikomo kimefikiwa: 2 kati ya 3');
  });

  it("keep the server's message for validation, for a specific message and for a code the browser does not know", async () => {
    i18n.addResourceBundle('sw', 'errors', { VALIDATION_FAILED: 'Angalia sehemu', CONFLICT: 'Mgongano' });
    await i18n.changeLanguage('sw');
    expect((await failure(400, { error: { code: 'VALIDATION_FAILED', message: 'Selling price must be 0 or more.' } })).message).toBe('Selling price must be 0 or more.');
    expect((await failure(409, { error: { code: 'CONFLICT', message: 'A product with this SKU already exists.' } })).message).toBe('A product with this SKU already exists.');
    expect((await failure(409, { error: { code: 'CONFLICT', message: 'This conflicts with existing data.' } })).message).toBe('Mgongano');
    expect((await failure(418, { error: { code: 'NEW_CODE', message: 'A brand new sentence.' } })).message).toBe('A brand new sentence.');
  });
});
