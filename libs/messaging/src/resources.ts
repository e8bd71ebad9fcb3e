import type { Logger } from 'pino';

/**
 * What a service opened while starting, closed in reverse order: on SIGTERM and after a failed start
 * alike (one cleanup path). A cleanup that fails is logged and the rest still run.
 */
export class Resources {
  private readonly closers: { name: string; close: () => unknown }[] = [];

  constructor(private readonly log: Logger) {}

  /** Registers `resource`'s cleanup and hands the resource back. */
  add<T>(name: string, resource: T, close: (r: T) => unknown): T {
    this.closers.push({ name, close: () => close(resource) });
    return resource;
  }

  /** A cleanup step with no resource of its own (stop consuming before the HTTP server closes, …). */
  defer(name: string, close: () => unknown): void {
    this.closers.push({ name, close });
  }

  async closeAll(): Promise<void> {
    for (let c = this.closers.pop(); c; c = this.closers.pop()) {
      try {
        await c.close();
      } catch (err) {
        this.log.warn({ err, resource: c.name }, 'cleanup failed');
      }
    }
  }
}
