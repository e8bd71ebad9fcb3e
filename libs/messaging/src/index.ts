export * from './rpc-client.js';
export * from './rpc-server.js';
export * from './jetstream.js';
export * from './outbox.js';
export * from './service-app.js';
export * from './run-service.js';
export * from './request-context.js';
export * from './nats-auth.js';
