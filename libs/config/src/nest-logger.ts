import type { Logger } from 'pino';

/** Adapts pino to Nest's LoggerService so framework messages are JSON lines too. */
export class PinoNestLogger {
  constructor(private readonly pinoLogger: Logger) {}
  log_(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]) {
    const context = rest.length ? String(rest[rest.length - 1]) : undefined;
    this.pinoLogger[level]({ context }, typeof message === 'string' ? message : JSON.stringify(message));
  }
  log(message: unknown, ...rest: unknown[]) {
    this.log_('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.log_('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.log_('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.log_('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.log_('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.log_('error', message, rest);
  }
}
