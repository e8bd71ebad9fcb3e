export * from './error-codes.js';
export * from './docket-error.js';
export * from './unavailable.js';
