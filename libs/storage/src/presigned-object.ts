import type { ObjectHead } from './s3-storage.js';

/*
 * Object operations through presigned URLs (`S3Storage.presignInternal`), for a process that holds no storage
 * credentials: each URL allows one operation on one key until it expires. A refusal or an unreachable store
 * throws (the caller retries later); only a missing object is an answer (`undefined`).
 */

export async function headPresigned(url: string): Promise<ObjectHead | undefined> {
  const r = await fetch(url, { method: 'HEAD' });
  if (r.status === 404) return undefined;
  if (!r.ok) throw new Error(`storage refused HEAD: HTTP ${r.status}`);
  return { size: Number(r.headers.get('content-length') ?? 0), contentType: r.headers.get('content-type') ?? undefined };
}

export async function getPresigned(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`storage refused GET: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** `contentType` must be the one signed into the URL. */
export async function putPresigned(url: string, body: Uint8Array | string, contentType: string): Promise<void> {
  const r = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
  if (!r.ok) throw new Error(`storage refused PUT: HTTP ${r.status}`);
}
