/**
 * Process entry for every service: start it, and on SIGTERM/SIGINT close it once (drain consumers,
 * close HTTP and NATS, end the pool) before exiting. A failed start exits non-zero with the reason.
 */
export async function runService(name: string, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let handle: { close(): Promise<void> };
  try {
    handle = await start();
  } catch (err) {
    console.error(`${name}: failed to start:`, err instanceof Error ? err.message : err);
    process.exit(1);
  }
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    handle.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`${name}: error while closing on ${signal}`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
