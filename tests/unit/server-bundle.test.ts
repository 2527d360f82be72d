import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_ENTRY, SERVER_OUT, bundleServer, serverBundleCurrent } from '../../scripts/server-bundle.mjs';

/** A package shaped like ours: server/main.ts importing a module of its own and one shared with the storefront. */
function tree() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'server-bundle-'));
  for (const dir of ['server', 'src/domain', 'tests']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
  writeFileSync(path.join(root, 'server/main.ts'), "import { rule } from '../src/domain/rule';\nexport const answer: number = rule();\n");
  writeFileSync(path.join(root, 'src/domain/rule.ts'), 'export const rule = () => 41 + 1;\n');
  writeFileSync(path.join(root, 'tests/main.test.ts'), 'x');
  return root;
}

describe('npm start bundles the server only when what the bundle read changed', () => {
  it('bundles runnable JavaScript and keeps it while its inputs are unchanged', async () => {
    const root = tree();
    expect(serverBundleCurrent(root)).toBe(false);
    await bundleServer(root);
    expect(serverBundleCurrent(root)).toBe(true);
    const bundle = (await import(pathToFileURL(path.join(root, SERVER_OUT, SERVER_ENTRY)).href)) as { answer: number };
    expect(bundle.answer).toBe(42);

    writeFileSync(path.join(root, 'tests/main.test.ts'), 'y');
    expect(serverBundleCurrent(root), 'a test file is not read by the bundle').toBe(true);
  });

  it('an edit of an imported module, or a new lockfile, makes it stale', async () => {
    const root = tree();
    await bundleServer(root);
    writeFileSync(path.join(root, 'src/domain/rule.ts'), 'export const rule = () => 43;\n');
    expect(serverBundleCurrent(root)).toBe(false);

    await bundleServer(root);
    expect(serverBundleCurrent(root)).toBe(true);
    writeFileSync(path.join(root, 'package-lock.json'), '{"v":2}\n');
    expect(serverBundleCurrent(root)).toBe(false);
  });
});
