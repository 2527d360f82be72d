import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, failedModuleUrl, loadChunk } from '../../src/app/screens';

const chromeError = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

describe('a screen chunk that fails to download (spec section 8)', () => {
  it('reads the failed address from the browser error', () => {
    expect(failedModuleUrl(chromeError('http://127.0.0.1:3000/assets/EventDetailScreen-a1B2.js'))).toBe(
      'http://127.0.0.1:3000/assets/EventDetailScreen-a1B2.js',
    );
    expect(failedModuleUrl(chromeError('https://shop.example/assets/x.js?retry=1'))).toBe('https://shop.example/assets/x.js');
    expect(failedModuleUrl(new Error('Unable to preload CSS for /assets/x.css'))).toBeNull();
  });

  it('is tried once more under a new address, and the screen loads', async () => {
    const load = vi.fn().mockRejectedValue(chromeError('http://h/assets/A-1.js'));
    const importer = vi.fn().mockResolvedValue({ A: 'screen' });
    expect(await loadChunk(load, importer)).toEqual({ A: 'screen' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(importer).toHaveBeenCalledTimes(1);
    expect(importer.mock.calls[0][0]).toMatch(/^http:\/\/h\/assets\/A-1\.js\?retry=\d+$/);
  });

  it('a second failure (or one without an address) is a ChunkLoadError', async () => {
    const load = vi.fn().mockRejectedValue(chromeError('http://h/assets/A-1.js'));
    await expect(loadChunk(load, vi.fn().mockRejectedValue(new TypeError('offline')))).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(loadChunk(vi.fn().mockRejectedValue(new Error('boom')), vi.fn())).rejects.toMatchObject({ name: 'ChunkLoadError' });
  });

  it('a chunk that loads is not asked twice', async () => {
    const importer = vi.fn();
    expect(await loadChunk(async () => 1, importer)).toBe(1);
    expect(importer).not.toHaveBeenCalled();
  });
});
