import type { OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * A background sweep run every N ms (artifact: upload expiry, processing deadline, retention purge; billing: hold
 * reconciliation): one run at a time
 * per process (a tick that finds the previous run still going is skipped), failures logged and retried on the
 * next tick, the timer unref'd and stopped on shutdown. Replicas share the work through SKIP LOCKED in `sweep`.
 */
export abstract class PeriodicSweep implements OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running = false;

  protected constructor(
    protected readonly log: Logger,
    private readonly what: string,
  ) {}

  /** One pass; returns how many rows it handled. */
  abstract sweep(now?: Date): Promise<number>;

  protected every(ms: number): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.sweep()
        .catch((err) => this.log.warn({ err }, `${this.what} sweep failed`))
        .finally(() => (this.running = false));
    }, ms);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
