/** The request id travels with the work: see `requestContext` in @docket/config (log lines) and RpcClient (NATS headers). */
export { REQUEST_ID_HEADER, requestContext } from '@docket/config';
