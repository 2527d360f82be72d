import { describe, expect, it } from 'vitest';
import { LighthouseRunError, retryingTraceErrors } from '../../bench/lighthouse';

/** Lighthouse's 'Please run Lighthouse again' errors are the harness's: the bench tries that run again, up to 3 times. */
describe('bench Lighthouse runs (bench/lighthouse.ts)', () => {
  const failing = (codes: string[]) => {
    let calls = 0;
    const attempt = async () => {
      const code = codes[calls++];
      if (code) throw new LighthouseRunError('http://x/events', code, 'went wrong');
      return 'report';
    };
    return { attempt, calls: () => calls };
  };

  it('tries a run again after a trace-recording error, and says so', async () => {
    const logged: string[] = [];
    const run = failing(['NO_NAVSTART', 'NO_TRACING_STARTED']);
    expect(await retryingTraceErrors(run.attempt, 'run 2', (line) => logged.push(line))).toBe('report');
    expect(run.calls()).toBe(3);
    expect(logged).toEqual([
      'lighthouse http://x/events: NO_NAVSTART went wrong: run 2 tried again (attempt 2 of 3)',
      'lighthouse http://x/events: NO_TRACING_STARTED went wrong: run 2 tried again (attempt 3 of 3)',
    ]);
  });

  it('gives up after three attempts, and never retries what the page did (no paint) or any other failure', async () => {
    const quiet = () => {};
    const thrice = failing(['NO_NAVSTART', 'NO_NAVSTART', 'NO_NAVSTART']);
    await expect(retryingTraceErrors(thrice.attempt, 'run 1', quiet)).rejects.toThrow('NO_NAVSTART');
    expect(thrice.calls()).toBe(3);
    const noPaint = failing(['NO_FCP']);
    await expect(retryingTraceErrors(noPaint.attempt, 'run 1', quiet)).rejects.toThrow('NO_FCP');
    expect(noPaint.calls()).toBe(1);
    let other = 0;
    const broken = async () => {
      other++;
      throw new Error('connection refused');
    };
    await expect(retryingTraceErrors(broken, 'run 1', quiet)).rejects.toThrow('connection refused');
    expect(other).toBe(1);
  });
});
