import { call, type DocketApi } from './client.js';
import { DocketRateLimitError, DocketTimeoutError, parseRetryAfterSeconds } from './errors.js';
import { sleep } from './retry.js';
import { isTerminal, type Job, type JobStatus } from './types.js';

export interface PollOptions {
  /** First wait between polls in ms (default 500). */
  intervalMs?: number;
  /** Longest wait between polls in ms (default 5000); waits grow by `factor` each poll. */
  maxIntervalMs?: number;
  /** Growth of the wait per poll (default 1.5). */
  factor?: number;
  /** Give up (DocketTimeoutError) after this many ms (default 10 minutes). The job keeps running. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called when the job's status changes. */
  onStatus?: (status: JobStatus, job: Job) => void;
}

export async function getJob<T extends Record<string, unknown>>(api: DocketApi, jobId: string, signal?: AbortSignal): Promise<Job<T>> {
  return (await call(api.GET('/job/{job_id}', { params: { path: { job_id: jobId } }, signal }))) as Job<T>;
}

/**
 * Polls `GET /job/{id}` until the job is terminal (`success`, `failed`, `cancelled`, `expired`) and returns it.
 * Waits grow from `intervalMs` to `maxIntervalMs`; a 429 waits its `Retry-After` (the HTTP layer already
 * retried it) and polling goes on; a `Retry-After` on a successful answer is honoured too.
 */
export async function waitForJob<T extends Record<string, unknown> = Record<string, unknown>>(
  api: DocketApi,
  jobId: string,
  options: PollOptions = {},
): Promise<Job<T>> {
  const { intervalMs = 500, maxIntervalMs = 5000, factor = 1.5, timeoutMs = 600_000, signal, onStatus } = options;
  const deadline = Date.now() + timeoutMs;
  let wait = intervalMs;
  let last: JobStatus | undefined;
  for (;;) {
    let pause = wait;
    try {
      const { data, error, response } = await api.GET('/job/{job_id}', { params: { path: { job_id: jobId } }, signal });
      const job = (await call(Promise.resolve({ data, error, response }))) as Job<T>;
      if (job.status !== last) onStatus?.(job.status, job);
      last = job.status;
      if (isTerminal(job.status)) return job;
      const after = parseRetryAfterSeconds(response.headers.get('retry-after'));
      if (after !== undefined) pause = Math.max(pause, after * 1000);
    } catch (err) {
      if (!(err instanceof DocketRateLimitError)) throw err;
      pause = Math.max(pause, (err.retryAfterSeconds ?? 1) * 1000);
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new DocketTimeoutError(jobId, last, timeoutMs);
    await sleep(Math.min(pause, left), signal);
    wait = Math.min(maxIntervalMs, Math.round(wait * factor));
  }
}
