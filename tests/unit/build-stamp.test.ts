import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the start script, without types
import { sourceStamp } from '../../scripts/build-stamp.mjs';

const stampOf = sourceStamp as (root: string) => string;

/** A tree shaped like the repository's build inputs. */
function tree() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'stamp-'));
  mkdirSync(path.join(root, 'src/app'), { recursive: true });
  writeFileSync(path.join(root, 'src/app/main.tsx'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'index.html'), '<!doctype html>\n');
  writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
  return root;
}

describe('npm start rebuilds only when the build inputs changed', () => {
  it('an unchanged tree keeps its stamp; an edit, a new file, a rename or a new lockfile changes it', () => {
    const root = tree();
    const first = stampOf(root);
    expect(stampOf(root)).toBe(first);

    writeFileSync(path.join(root, 'src/app/main.tsx'), 'export const a = 2;\n');
    const edited = stampOf(root);
    expect(edited).not.toBe(first);

    writeFileSync(path.join(root, 'src/app/extra.ts'), '');
    const added = stampOf(root);
    expect(added).not.toBe(edited);

    renameSync(path.join(root, 'src/app/extra.ts'), path.join(root, 'src/app/other.ts'));
    const renamed = stampOf(root);
    expect(renamed).not.toBe(added);

    writeFileSync(path.join(root, 'package-lock.json'), '{"v":2}\n');
    expect(stampOf(root)).not.toBe(renamed);
  });

  it('files outside the build inputs (server code, tests) do not make a rebuild', () => {
    const root = tree();
    const before = stampOf(root);
    mkdirSync(path.join(root, 'server'));
    writeFileSync(path.join(root, 'server/main.ts'), 'x');
    expect(stampOf(root)).toBe(before);
  });
});
