export * from './expect-eventually.js';
export * from './embedded-s3.js';
export * from './infra.js';
export * from './nats-server.js';
export * from './pdf-bomb.js';
export * from './tcp-proxy.js';
export * from './einvoice.js';
