/**
 * Polls until `probe` stops throwing (or returns a truthy value when `truthy` is set), with a deadline.
 * Async effects are asserted with this, never with a blind sleep.
 */
export async function expectEventually<T>(
  probe: () => Promise<T> | T,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let lastErr: unknown;
  for (;;) {
    try {
      return await probe();
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      const msg = lastErr instanceof Error ? lastErr.message : String(lastErr);
      throw new Error(`expectEventually${opts.what ? ` (${opts.what})` : ''} timed out: ${msg}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}

/** The error a promise rejects with; fails the test when it resolves instead. */
export async function rejectionOf<E = unknown>(promise: Promise<unknown>, what = 'the call'): Promise<E> {
  return promise.then(
    () => {
      throw new Error(`expected ${what} to fail`);
    },
    (err: E) => err,
  );
}
