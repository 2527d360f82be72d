import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';

describe('the server settings read from the environment', () => {
  it('takes a variable set to nothing as unset: DATA_DIR= keeps the data in .data/, not beside the sources', () => {
    const empty = readConfig({ DATA_DIR: '', PORT: '', STATIC_DIR: '', SSR_DIR: '', DATABASE_POOL_SIZE: '' });
    const unset = readConfig({});
    expect(empty.dataDir).toBe(path.resolve('.data'));
    expect(empty).toEqual(unset);
    expect(empty.port).toBe(3000);
  });
});
