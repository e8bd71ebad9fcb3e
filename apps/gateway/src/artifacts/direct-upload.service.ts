import { Inject, Injectable } from '@nestjs/common';
import { MIME_TYPE_PATTERN, RETENTION_POLICIES, Subjects, type ArtifactRecordDto, type ExtractResponseDto } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { AuthContext } from '../identity/index.js';
import { CONFIG } from '../tokens.js';

/**
 * Default of the largest file `POST /artifacts/upload` accepts (the spec leaves it open; env
 * `DIRECT_UPLOAD_MAX_BYTES`). The gateway buffers the file (a presigned S3 PUT needs its length up
 * front), so this bounds its memory per request; bigger files go through `POST /extract` + a direct PUT.
 */
export const DIRECT_UPLOAD_MAX_BYTES_DEFAULT = 25 * 1024 * 1024;

interface UploadedFile {
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

/** A multipart filename as an artifact filename: last path segment, no control characters. */
function safeFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f]/g, '')
    .trim()
    .slice(0, 255);
  return clean || 'upload';
}

/**
 * `POST /artifacts/upload`: the four steps of the main flow in one request, done exactly as a client
 * would (create, presigned PUT, confirm), so the gateway holds no storage credentials and no bytes cross NATS.
 */
@Injectable()
export class DirectUploadService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly cfg: GatewayConfig,
  ) {}

  async upload(auth: AuthContext, req: FastifyRequest): Promise<ArtifactRecordDto> {
    const { file, retention } = await this.read(req);
    const created = await this.rpc.request<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId: auth.accountId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
      request: { filename: file.filename, artifact_type: file.mimeType, artifact_size: file.bytes.length, retention_policy: retention },
    });
    const ref = { accountId: auth.accountId, artifactId: created.artifact_id };
    try {
      const put = await fetch(created.upload_url, {
        method: 'PUT',
        headers: { 'content-type': file.mimeType },
        body: new Uint8Array(file.bytes),
      });
      if (!put.ok) throw new DocketError('service_unavailable', `Storage refused the upload (HTTP ${put.status})`);
      return await this.rpc.request<ArtifactRecordDto>(Subjects.artifact.confirmUpload, ref);
    } catch (err) {
      // Nothing half-done stays behind: the artifact goes and its hold is released.
      await this.rpc.request(Subjects.artifact.delete, ref).catch(() => undefined);
      throw err instanceof DocketError ? err : new DocketError('service_unavailable', 'Could not store the upload');
    }
  }

  private async read(req: FastifyRequest): Promise<{ file: UploadedFile; retention?: string }> {
    const max = this.cfg.DIRECT_UPLOAD_MAX_BYTES;
    if (!req.isMultipart?.())
      throw new DocketError('validation_failed', 'Send multipart/form-data with a `file` part', { fields: ['file'] });
    let file: UploadedFile | undefined;
    let retention: string | undefined;
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.fieldname === 'file' && !file) {
            const mimeType = MIME_TYPE_PATTERN.test(part.mimetype) ? part.mimetype : 'application/octet-stream';
            file = { filename: safeFilename(part.filename), mimeType, bytes };
          }
        } else if (part.fieldname === 'retention_policy') {
          retention = String(part.value);
        }
      }
    } catch (err) {
      const e = err as { code?: string; statusCode?: number; message?: string };
      if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
        throw new DocketError('payload_too_large', `The file is larger than ${max} bytes; use POST /extract and PUT it to storage`, {
          max_bytes: max,
        });
      }
      throw new DocketError('invalid_body', e.message ?? 'Malformed multipart body');
    }
    if (!file) throw new DocketError('validation_failed', 'file is required', { fields: ['file'] });
    if (file.bytes.length === 0) throw new DocketError('validation_failed', 'The file is empty', { fields: ['file'] });
    if (retention !== undefined && !(RETENTION_POLICIES as readonly string[]).includes(retention)) {
      throw new DocketError('invalid_body', `retention_policy must be one of ${RETENTION_POLICIES.join(', ')}`, {
        fields: ['retention_policy'],
      });
    }
    return { file, retention };
  }
}
