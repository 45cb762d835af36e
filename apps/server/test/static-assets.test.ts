import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD, IMMUTABLE_CACHE, NO_CACHE } from '../src/app.ts';
import { createTestApp, type TestApp } from './app.ts';

/**
 * Issue 8 item 12: the built web app's hashed files are sent precompressed (the build's .br and .gz) with a year of
 * immutable caching, index.html is never cached, and API answers above COMPRESS_THRESHOLD are compressed as the
 * client accepts. A web build laid out as Vite writes it (apps/web/vite.config.ts's precompress plugin), in a
 * temporary directory.
 */

const SCRIPT = `export const greeting = ${JSON.stringify('karibu '.repeat(2000))};\n`;
const HASHED = 'assets/index-Ab12Cd34.js';
/** The prerendered landing page (docs/decisions/0057), told apart from the app's index.html by its text. */
const LANDING = '<!doctype html><html><head><title>Landing</title></head><body><div id="root"><h1>Run your pharmacy</h1></div></body></html>';

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  const html = `<!doctype html><html><head><script type="module" src="/${HASHED}"></script></head><body><div id="root"></div></body></html>`;
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'landing.html'), LANDING);
  writeFileSync(path.join(dist, HASHED), SCRIPT);
  writeFileSync(path.join(dist, `${HASHED}.br`), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, `${HASHED}.gz`), gzipSync(SCRIPT));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp('pglite', { webDist: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the built web app and compression', () => {
  it('sends a hashed script as the build’s brotli file when the browser accepts br, cached for a year as immutable', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/${HASHED}`, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip file to a browser without brotli, and the plain file to one that accepts neither', async () => {
    const gz = await t.app.inject({ method: 'GET', url: `/${HASHED}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE_CACHE);

    const plain = await t.app.inject({ method: 'GET', url: `/${HASHED}`, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('never lets a browser keep index.html without asking (the entry names the current hashed files)', async () => {
    for (const url of ['/', '/app/products', '/login', '/index.html', '/landing.html']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(NO_CACHE);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
    }
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe(NO_CACHE);
  });

  it('answers / and /landing with the prerendered landing page, every other page with the app (index.html)', async () => {
    for (const url of ['/', '/landing', '/?utm_source=sms', '/landing?ref=flyer']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.headers['cache-control'], url).toBe(NO_CACHE);
      expect(response.body, url).toBe(LANDING);
    }
    for (const url of ['/login', '/purchase', '/demo', '/landing/more', '/app/dashboard']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
    }
  });

  it('answers 404 for a hashed file that is not there (an old chunk after a deploy), not the app page', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-Gone0000.js' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/json/);
  });

  it('compresses a large API answer over real HTTP (brotli or gzip as accepted) and leaves a small one alone', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const raw = async (url: string, acceptEncoding: string) => {
      // fetch would decode the body: read the bytes as sent, through node's http.
      const http = await import('node:http');
      return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        http.get(`${base}${url}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    };
    const plain = await raw('/api/openapi.json', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD * 10);

    const br = await raw('/api/openapi.json', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));

    const gz = await raw('/api/openapi.json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).openapi).toBeDefined();

    const small = await raw('/health', 'gzip, br');
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('a build without the prerendered landing page', () => {
  it('answers / with the app (index.html), which draws the landing page itself', async () => {
    const older = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
    writeFileSync(path.join(older, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    const app = await createTestApp('pglite', { webDist: older });
    try {
      for (const url of ['/', '/landing']) {
        const response = await app.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toContain('<div id="root"></div>');
      }
    } finally {
      await app.close();
      rmSync(older, { recursive: true, force: true });
    }
  });
});
