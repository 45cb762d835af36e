// Benchmark: the JavaScript a browser downloads to open the till (/pos), the sign-in page and the landing page on a
// first visit, gzipped, from the production build's manifest. Budgets: 250 KiB gzipped for the till's first load,
// 100 KiB for the landing page's. The build has two pages (apps/web/vite.config.ts): index.html, the single-page app
// (every screen below but the landing page: its entry plus the screen's lazy chunk), and landing.html, the landing
// page prerendered to HTML (docs/decisions/0057), whose first load is its own entry and what that imports: the
// scripts and module preloads the browser fetches before the page's first paint.
// Run: npm run build && npx tsx bench/bundle-size.ts   (--check: exit 1 when a budget is exceeded; .ci/run does it)
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

function report(label: string, routeSrc: string | null, page = 'index.html'): number {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry && manifest[k]!.src === page);
  if (!entry) throw new Error(`no entry for ${page} in the manifest`);
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
report('shell only (the app entry, index.html)', null);
const landing = report('/ and /landing (landing.html, prerendered)', null, 'landing.html');
// Checked against the page itself: every script and module preload landing.html names is counted above.
const landingHtml = readFileSync(path.join(dist, 'landing.html'), 'utf8');
const named = [...landingHtml.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+)"/g)].map((m) => m[1]!);
const namedJs = named.reduce((sum, f) => sum + gz(f), 0);
if (named.length === 0 || namedJs !== landing) throw new Error(`landing.html names ${named.length} scripts (${kib(namedJs)} KiB), the manifest ${kib(landing)} KiB`);
report('/ reached inside the app (client-side navigation)', 'features/public/routes/landing-page.tsx');
report('/login', 'features/auth/routes/login-page.tsx');
const till = report('/pos (the till)', 'features/pos/routes/pos-page.tsx');
report('/app/products', 'features/products/routes/products-page.tsx');
// The app layout is loaded with every /app screen.
console.log(`\nTill budget 250 KiB gzipped: ${kib(till)} KiB used (${till <= 250 * 1024 ? 'within' : 'OVER'} budget).`);
console.log(`The landing page's HTML (landing.html, the whole page prerendered): ${kib(gz('landing.html'))} KiB gzipped.`);
// The landing page sells: under 100 KiB of gzipped JS before its first paint (issue 11 item 1).
console.log(`Landing page budget 100 KiB gzipped: ${kib(landing)} KiB used (${landing <= 100 * 1024 ? 'within' : 'OVER'} budget).`);
// `--check` (.ci/run, after the build): a budget exceeded fails the run, so no change lands over it unnoticed.
if (process.argv.includes('--check') && (till > 250 * 1024 || landing > 100 * 1024)) {
  console.error('A first-load budget is exceeded (see above).');
  process.exitCode = 1;
}
