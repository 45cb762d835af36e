// Benchmark: the JavaScript a browser downloads to open the till (/pos) and the sign-in page on a first visit,
// gzipped, from the production build's manifest. Budgets: 250 KiB gzipped for the till's first load, 100 KiB for the
// landing page's.
// Run: npm run build && npx tsx bench/bundle-size.ts
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const dist = process.env.WEB_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

/** A chunk and everything it imports statically (what the browser must fetch before it runs). */
function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function report(label: string, routeSrc: string | null): number {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('no entry in the manifest');
  const keys = [entry];
  if (routeSrc) {
    const route = Object.keys(manifest).find((k) => k.endsWith(routeSrc));
    if (!route) throw new Error(`no chunk for ${routeSrc}`);
    keys.push(route);
  }
  const files = [...closure(keys)].map((k) => manifest[k]!.file);
  const js = files.reduce((sum, f) => sum + gz(f), 0);
  const css = [...new Set([...closure(keys)].flatMap((k) => manifest[k]!.css ?? []))].reduce((sum, f) => sum + gz(f), 0);
  console.log(`| ${label} | ${files.length} | ${kib(js)} | ${kib(css)} |`);
  return js;
}

console.log('| first load of | JS files | JS KiB (gzip) | CSS KiB (gzip) |');
console.log('| --- | ---: | ---: | ---: |');
report('shell only (entry)', null);
const landing = report('/ (the landing page)', 'features/public/routes/landing-page.tsx');
report('/login', 'features/auth/routes/login-page.tsx');
const till = report('/pos (the till)', 'features/pos/routes/pos-page.tsx');
report('/app/products', 'features/products/routes/products-page.tsx');
// The app layout is loaded with every /app screen.
console.log(`\nTill budget 250 KiB gzipped: ${kib(till)} KiB used (${till <= 250 * 1024 ? 'within' : 'OVER'} budget).`);
// The landing page sells: under 100 KiB of gzipped JS before its first paint (issue 11 item 1).
console.log(`Landing page budget 100 KiB gzipped: ${kib(landing)} KiB used (${landing <= 100 * 1024 ? 'within' : 'OVER'} budget).`);
