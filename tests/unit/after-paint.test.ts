import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '../../src/app/after-paint';

describe('afterNextPaint', () => {
  const frames: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frames[id - 1] = () => {};
  });
  afterEach(() => {
    frames.length = 0;
    vi.useRealTimers();
  });

  it('runs in a task after the next frame, not in the frame itself', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fn = vi.fn();
    afterNextPaint(fn);
    vi.runAllTimers();
    expect(fn).not.toHaveBeenCalled();
    frames[0](0);
    expect(fn).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('a cancel before the frame or after it stops it', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const early = vi.fn();
    afterNextPaint(early)();
    frames[0](0);
    const late = vi.fn();
    const cancel = afterNextPaint(late);
    frames[1](0);
    cancel();
    vi.runAllTimers();
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});
