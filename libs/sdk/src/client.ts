import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { DocketApiError, DocketError, DocketServerError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { retryingFetch, type RetryOptions } from './retry.js';

/** The generated, fully typed client: `api.GET('/job/{job_id}', { params: { path: { job_id } } })`. */
export type DocketApi = Client<paths>;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';
export const SDK_VERSION = '0.1.0';

export interface DocketClientOptions {
  /** API base including `/api/v1` (default `http://127.0.0.1:3000/api/v1`, what `npm start` serves). */
  baseUrl?: string;
  /** `dk_live_…` or `dk_test_…`. */
  apiKey: string;
  /** `sk_…`, shown once when the key was created. */
  secret: string;
  /** Retries of 429 / 5xx / network failures; see RetryOptions. */
  retry?: RetryOptions;
  /** Replaces `globalThis.fetch` (tests, proxies). */
  fetch?: (input: Request) => Promise<Response>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The typed client with Basic auth, an `Idempotency-Key` on every write (one per call, the same on each of
 * its retries) and retries honouring `Retry-After`. Calls return `{ data, error, response }`; wrap them in
 * `call()` to get the data or a typed DocketApiError.
 */
export function createDocketApi(options: DocketClientOptions): DocketApi {
  if (!options.apiKey || !options.secret) throw new DocketError('apiKey and secret are required');
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:${options.secret}`).toString('base64')}`;
  const base = options.fetch ?? ((req: Request) => globalThis.fetch(req));
  const api = createClient<paths>({
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    fetch: retryingFetch(base, options.retry),
    headers: { authorization, 'user-agent': `docket-sdk/${SDK_VERSION} node/${process.versions.node}` },
  });
  api.use({
    onRequest({ request }) {
      if (WRITE_METHODS.has(request.method) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', randomUUID());
      }
      return request;
    },
  });
  return api;
}

type ApiResult<T> = { data?: T; error?: unknown; response: Response };

/**
 * Awaits one generated-client call and returns its data, or throws the typed error for the envelope
 * (DocketNotFoundError, DocketPaymentError, …; `err.code` is the envelope's code). A request that got no
 * answer at all throws DocketServerError with status 0 and code `network_error`.
 */
export async function call<T>(pending: Promise<ApiResult<T>>): Promise<T> {
  let result: ApiResult<T>;
  try {
    result = await pending;
  } catch (err) {
    if (err instanceof DocketError || (err as Error)?.name === 'AbortError') throw err;
    const cause = (err as Error & { cause?: Error })?.cause?.message ?? (err as Error)?.message;
    throw new DocketServerError(0, 'network_error', `no answer from the Docket API: ${cause}`, undefined, undefined);
  }
  if (result.error !== undefined || !result.response.ok) throw DocketApiError.from(result.response, result.error);
  return result.data as T;
}
