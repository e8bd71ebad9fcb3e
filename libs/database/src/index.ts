export * from './data-source.js';
export * from './roles.js';
