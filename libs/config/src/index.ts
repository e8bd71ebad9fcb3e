export * from './load-config.js';
export * from './logger.js';
export * from './nest-logger.js';
export * from './log-context.js';
