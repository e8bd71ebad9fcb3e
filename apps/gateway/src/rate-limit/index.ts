export * from './rate-limit.config.js';
export * from './rate-limit.module.js';
export * from './rate-limit.service.js';
export * from './rate-limit.store.js';
export * from './window.js';
