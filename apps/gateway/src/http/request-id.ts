import { ulid } from 'ulid';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Reuse a caller's X-Request-Id when it is sane, otherwise mint one. It appears in every log line and error body. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && ACCEPTABLE.test(value) ? value : `req_${ulid().toLowerCase()}`;
}
