import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AT_START_DELAY_MS, repeat } from '../../server/jobs/repeat';

describe('repeat (the background jobs)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('an atStart round waits AT_START_DELAY_MS after the start, so the first pages are not queued behind it', async () => {
    const round = vi.fn().mockResolvedValue(undefined);
    const stop = repeat('job', 60_000, round, { atStart: true });
    await vi.advanceTimersByTimeAsync(AT_START_DELAY_MS - 1);
    expect(round).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(round).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000 - AT_START_DELAY_MS);
    expect(round).toHaveBeenCalledTimes(2);
    stop();
  });

  it('without atStart, or with an interval shorter than the wait, the first round comes with the interval', async () => {
    const plain = vi.fn().mockResolvedValue(undefined);
    const often = vi.fn().mockResolvedValue(undefined);
    const stops = [repeat('plain', 5_000, plain), repeat('often', 500, often, { atStart: true })];
    await vi.advanceTimersByTimeAsync(499);
    expect(often).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(often).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4_500);
    expect(plain).toHaveBeenCalledTimes(1);
    expect(often).toHaveBeenCalledTimes(10);
    stops.forEach((stop) => stop());
  });

  it('stopped before its first round, nothing runs; a round still running is not overlapped', async () => {
    const never = vi.fn().mockResolvedValue(undefined);
    repeat('never', 60_000, never, { atStart: true })();
    let finish = () => {};
    const slow = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = repeat('slow', 1_000, slow);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(slow).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(slow).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(never).not.toHaveBeenCalled();
  });
});
