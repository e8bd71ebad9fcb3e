import { afterEach, describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import { PeriodicSweep } from './periodic-sweep.js';

class Counting extends PeriodicSweep {
  runs = 0;
  release: (() => void)[] = [];
  fail = false;
  constructor(log = pino({ level: 'silent' })) {
    super(log, 'test');
  }
  start(ms: number): void {
    this.every(ms);
  }
  sweep(): Promise<number> {
    this.runs++;
    if (this.fail) return Promise.reject(new Error('database down'));
    return new Promise((resolve) => this.release.push(() => resolve(1)));
  }
}

describe('PeriodicSweep', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs once a tick, skips ticks while a run is still going, and stops on shutdown', async () => {
    jest.useFakeTimers();
    const s = new Counting();
    s.start(100);
    jest.advanceTimersByTime(100);
    expect(s.runs).toBe(1);
    jest.advanceTimersByTime(300); // the first run has not finished: no second one beside it
    expect(s.runs).toBe(1);
    s.release.shift()!();
    await Promise.resolve();
    await Promise.resolve();
    jest.advanceTimersByTime(100);
    expect(s.runs).toBe(2);
    s.release.shift()!();
    s.onApplicationShutdown();
    jest.advanceTimersByTime(1000);
    expect(s.runs).toBe(2);
  });

  it('logs a failed run and tries again on the next tick', async () => {
    jest.useFakeTimers();
    const warnings: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const s = new Counting(log);
    s.fail = true;
    s.start(100);
    jest.advanceTimersByTime(100);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(warnings).toEqual([
      expect.objectContaining({ msg: 'test sweep failed', err: expect.objectContaining({ message: 'database down' }) }),
    ]);
    jest.advanceTimersByTime(100);
    expect(s.runs).toBe(2);
    s.onApplicationShutdown();
  });
});
