#!/usr/bin/env node
/* global process, console, URL */
// `npm start` (issue 8 item 1; decision 0051): one Node process that
//   1. builds the web app (apps/web/dist) only if its sources changed (scripts/build-web.mjs),
//   2. compiles the server into apps/server/dist/main.mjs only if its sources changed (scripts/build-server.mjs),
//   3. runs that bundle (apps/server/src/main.ts, compiled).
// A restart with nothing changed therefore costs two hashes of the sources and the server's own start, without a
// second Node process and without compiling TypeScript. `npx tsx apps/server/src/main.ts` still runs the sources as
// they are (tests, e2e and benches do).
// WEB_DIST set: the server serves that directory, so apps/web/dist is not built.
// Without esbuild (installed without dev dependencies) the sources run through tsx, a dependency of the server.
import { pathToFileURL } from 'node:url';
import { ensureWebBuilt } from './build-web.mjs';
import { ensureServerBuilt } from './build-server.mjs';

if (!process.env.WEB_DIST && !ensureWebBuilt()) process.exit(1);
let bundle;
try {
  bundle = await ensureServerBuilt();
} catch {
  process.exit(1);
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  console.log('esbuild is not installed: running the server from its TypeScript sources (tsx).');
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../apps/server/src/main.ts', import.meta.url).href);
}
