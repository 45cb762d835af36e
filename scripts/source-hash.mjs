// The SHA-256 of the files a build reads (their paths relative to the repository and their bytes, in a stable order),
// shared by scripts/build-web.mjs and scripts/build-server.mjs: a build runs only when this changes.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `inputs` are paths relative to `root`: directories are walked, files taken as they are; `include(file)` keeps a
 * walked file (by its absolute path); `salt` is hashed first (what else the build depends on).
 */
export function sourceHash(root, inputs, { include = () => true, salt = '' } = {}) {
  const hash = createHash('sha256');
  hash.update(`${salt}\0`);
  const list = [];
  for (const input of inputs) {
    const absolute = path.join(root, input);
    if (!existsSync(absolute)) continue;
    if (!statSync(absolute).isDirectory()) {
      list.push(absolute);
      continue;
    }
    for (const entry of readdirSync(absolute, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath ?? entry.path, entry.name);
      if (include(full)) list.push(full);
    }
  }
  for (const file of list.sort()) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

