// The stamp of a storefront build (dist/.build-stamp): a SHA-256 over every file the Vite build reads (src,
// locales, schemas, index.html, the Vite and TypeScript configs and the lockfile), names and contents, in a fixed
// order, so a checkout, an edit or a new dependency changes it and an unchanged tree keeps it on every machine.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const BUILD_INPUTS = ['src', 'locales', 'schemas', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

function files(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath ?? d.path, d.name)));
}

/** The hash of the build's inputs under `root`. */
export function sourceStamp(root, inputs = BUILD_INPUTS) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => files(root, entry)).sort()) {
    hash
      .update(file.split(path.sep).join('/'))
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}
