import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id of the HTTP request being served, carried implicitly through async calls in the
 * gateway and sent along as the `x-request-id` NATS header, so a 5xx can be found in every service's logs.
 */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();
export const REQUEST_ID_HEADER = 'x-request-id';
