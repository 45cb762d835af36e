#!/usr/bin/env node
/* global process, console */
// Compiles the server (apps/server/src/main.ts and the domain package it imports) into one ES module,
// apps/server/dist/main.mjs, with esbuild (issue 8 item 1; decision 0051). `npm start` runs that bundle instead of
// compiling some 400 TypeScript files through tsx at every start, and rebuilds it only when what goes into it changed:
// a SHA-256 of the server's and the domain's sources, the lockfile and this script is kept in
// apps/server/dist/.build-hash. `--force` builds anyway.
//
// Dependencies from node_modules stay outside the bundle (imported at run time as usual: PGlite finds its own files,
// argon2 its native binary); only the workspace's own TypeScript (@pharmapoint/domain) goes in. Source files that find
// files next to themselves through import.meta.url (the migrations directory, the repository root, package.json)
// get their own file's URL, so those paths mean what they mean under tsx. The bundle therefore belongs to this
// checkout's directory: the directory is part of the hash.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceHash } from './source-hash.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'apps/server');
export const SERVER_BUNDLE = path.join(SERVER, 'dist/main.mjs');
const STAMP = path.join(SERVER, 'dist/.build-hash');

/** What the bundle is made from: directories walked (tests left out) and single files. */
const INPUTS = ['apps/server/src', 'packages/domain/src', 'apps/server/package.json', 'package-lock.json', 'tsconfig.base.json', 'scripts/build-server.mjs'];
const isSource = (file) => !/\.test\.tsx?$/.test(file);

/** The hash of the bundle's inputs; the checkout's directory and Node's version are part of it. */
const hashSources = () => sourceHash(ROOT, INPUTS, { include: isSource, salt: `${ROOT}\0${process.version}` });

/** esbuild plugin: bare imports stay external except the workspace's own packages (TypeScript sources). */
const externalDependencies = {
  name: 'external-dependencies',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pharmapoint/') || args.kind === 'entry-point') return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** esbuild plugin: `import.meta.url` in a source file is that file's own URL, as under tsx. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/**
 * Makes apps/server/dist/main.mjs unless it was made from these very sources (or `force`). Returns its path, or
 * null when esbuild is not installed (an install without dev dependencies). Throws when esbuild fails (it printed why).
 */
export async function ensureServerBuilt({ force = false, quiet = false } = {}) {
  const started = Date.now();
  const hash = hashSources();
  if (!force && existsSync(SERVER_BUNDLE) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash) {
    if (!quiet) console.log(`Server up to date (apps/server/dist, sources unchanged; checked in ${Date.now() - started} ms).`);
    return SERVER_BUNDLE;
  }
  let build;
  try {
    ({ build } = await import('esbuild'));
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') return null;
    throw error;
  }
  // Built into a directory of its own, then put in place: the chunks of an earlier build have other names, and a
  // server starting meanwhile reads a whole build.
  const out = path.join(SERVER, `dist.${process.pid}.tmp`);
  rmSync(out, { recursive: true, force: true });
  try {
    await build({
      entryPoints: { main: path.join(SERVER, 'src/main.ts') },
      outdir: out,
      outExtension: { '.js': '.mjs' },
      // main.ts imports the application with import() so that its modules load while the database opens: with
      // splitting, the application is a chunk whose dependencies are imported only then.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      // Not minified: stack traces name the functions of the sources. The source maps are written next to the bundle;
      // NODE_OPTIONS=--enable-source-maps makes stack traces name the TypeScript files (at a cost at every start).
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [externalDependencies, ownImportMetaUrl],
    });
    writeFileSync(path.join(out, '.build-hash'), `${hash}\n`);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  rmSync(path.dirname(SERVER_BUNDLE), { recursive: true, force: true });
  try {
    renameSync(out, path.dirname(SERVER_BUNDLE));
  } catch (error) {
    // Another start built it at the same moment: use theirs.
    rmSync(out, { recursive: true, force: true });
    if (!existsSync(SERVER_BUNDLE)) throw error;
  }
  if (!quiet) console.log(`Built the server (apps/server/dist/main.mjs) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return SERVER_BUNDLE;
}

// Run as a script: build (if needed), exit 1 when esbuild failed.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!(await ensureServerBuilt({ force: process.argv.includes('--force') }))) throw new Error('esbuild is not installed (npm install)');
  } catch (error) {
    if (!error?.errors) console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
