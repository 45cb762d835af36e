import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createServer, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const backend = process.env.VITE_API_TARGET ?? 'http://localhost:3000';
const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text file of the build
 * (JS, CSS, HTML, SVG, JSON) of 1 KiB or more, once at build time, so the server sends them as they are
 * (@fastify/static preCompressed) instead of compressing on every request or not at all (issue 8 item 12).
 */
function precompress(): Plugin {
  return {
    name: 'pharmapoint-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((name) => /\.(js|mjs|css|html|svg|json)$/.test(name) && !name.startsWith('.vite/'));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const source = await readFile(file);
          if (source.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gzip(source, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The landing page (/ and /landing) is HTML written at build time (docs/decisions/0057): landing.html, the build's
 * second page, gets the markup of the app's own LandingPage rendered to a string (src/features/public/landing/
 * prerender.tsx, loaded through a short-lived Vite server in SSR mode, so it is compiled exactly as the app is) and
 * its title, before precompress() compresses it. Its one script (landing/entry.ts) is a few KiB: the visitor sees
 * the page without downloading React, the router or the API client.
 */
function prerenderLanding(): Plugin {
  let root = process.cwd();
  return {
    name: 'pharmapoint-prerender-landing',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const page = bundle['landing.html'];
        if (!page || page.type !== 'asset') this.error('landing.html is missing from the build (build.rolldownOptions.input)');
        const server = await createServer({
          configFile: false,
          root,
          logLevel: 'error',
          appType: 'custom',
          resolve: { alias },
          plugins: [react()],
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const { renderLanding } = (await server.ssrLoadModule('/src/features/public/landing/prerender.tsx')) as {
            renderLanding: () => { html: string; title: string };
          };
          const { html, title } = renderLanding();
          const source = String(page.source);
          if (!source.includes('<!--landing-html-->') || !source.includes('<!--landing-title-->')) this.error('landing.html lost its placeholders');
          page.source = source.replace('<!--landing-title-->', () => escapeHtml(title)).replace('<!--landing-html-->', () => html);
        } finally {
          await server.close();
        }
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), prerenderLanding(), precompress()],
  resolve: { alias },
  server: {
    port: 5173,
    // The manual page imports docs/user-manual.md from the repository root.
    fs: { allow: ['../..'] },
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/dev': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/dev': { target: backend, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // bench/bundle-size.ts reads it to report what the till downloads first.
    manifest: true,
    rolldownOptions: {
      // Two pages: the single-page app (index.html, every path but the landing page) and the prerendered landing
      // page (landing.html, served for / and /landing by apps/server/src/platform/errors.ts).
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        landing: fileURLToPath(new URL('./landing.html', import.meta.url)),
      },
      output: {
        // Long-lived vendor chunks cache across deploys; heavy libraries (charts, tables) stay in the lazy
        // screen chunks that import them, so the first load carries only the shell.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]react-query|query-core/, priority: 20 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
