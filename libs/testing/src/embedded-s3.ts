import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';

/** Neither `server` nor its connections (kept alive by clients, now or later) keep this process alive any more. */
export function unrefServer(server: Server): void {
  server.unref();
  server.closeIdleConnections();
  server.on('connection', (socket) => socket.unref());
}

export interface EmbeddedS3 {
  port: number;
  endpoint: string;
  /** Lets this process exit while the server still listens (it then ends with the process). */
  unref(): void;
  close(): Promise<void>;
}

/** Bucket CORS: GET/HEAD/PUT from any origin — presigned URLs carry their own authorisation. */
const BROWSER_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/**
 * Development and test only: @20minutes/s3rver, which verifies SigV4 (a wrong Content-Type on a
 * presigned PUT is a 403, as with MinIO). Plain `s3rver` 3.x accepts any signature and is never used.
 * Credentials are S3RVER / S3RVER.
 */
export async function startEmbeddedS3(opts: {
  port: number;
  directory: string;
  bucket: string;
  address?: string;
  silent?: boolean;
}): Promise<EmbeddedS3> {
  mkdirSync(opts.directory, { recursive: true });
  const mod = (await import('@20minutes/s3rver')) as unknown as {
    default: new (o: object) => { run(): Promise<{ port: number }>; close(): Promise<void>; httpServer?: Server };
  };
  const S3rver = mod.default;
  const address = opts.address ?? '127.0.0.1';
  const server = new S3rver({
    port: opts.port,
    address,
    directory: opts.directory,
    silent: opts.silent ?? true,
    // Presigned URLs are usable from a browser page (the dashboard renders the uploaded page; MinIO allows any origin by default).
    configureBuckets: [{ name: opts.bucket, configs: [BROWSER_CORS] }],
  });
  const info = await server.run();
  const port = info.port ?? opts.port;
  return {
    port,
    endpoint: `http://${address}:${port}`,
    unref: () => (server.httpServer ? unrefServer(server.httpServer) : undefined),
    close: () => server.close(),
  };
}
