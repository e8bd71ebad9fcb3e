/** The one rule for request ids, shared by every service: see `requestIdFrom` in @docket/messaging. */
export { requestIdFrom } from '@docket/messaging';
