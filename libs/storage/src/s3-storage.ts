import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface S3StorageConfig {
  endpoint: string;
  /** Endpoint clients see in presigned URLs; defaults to `endpoint`. */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface ObjectHead {
  size: number;
  contentType?: string;
}

/**
 * S3 API only (MinIO in deployments, embedded s3rver in development). Presigned PUTs sign the
 * Content-Type and Content-Length, so storage itself refuses an upload whose type differs from
 * `artifact_type` or whose size differs from `artifact_size`.
 */
export class S3Storage {
  private readonly client: S3Client;
  private readonly presigner: S3Client;

  constructor(private readonly cfg: S3StorageConfig) {
    const base = {
      region: cfg.region,
      forcePathStyle: true,
      credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.client = new S3Client({ ...base, endpoint: cfg.endpoint });
    this.presigner = new S3Client({ ...base, endpoint: cfg.publicEndpoint ?? cfg.endpoint });
  }

  get bucket(): string {
    return this.cfg.bucket;
  }

  /**
   * Object-level probe first: the embedded s3rver rejects bucket-level signatures, and a HEAD of a
   * missing key answers 404 only when the bucket exists and the credentials are good.
   */
  async ensureBucket(): Promise<void> {
    try {
      await this.ping();
      return;
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.cfg.bucket })).catch((err: { name?: string }) => {
        if (err.name !== 'BucketAlreadyOwnedByYou' && err.name !== 'BucketAlreadyExists') throw err;
      });
    }
  }

  /**
   * A PUT URL bound to the Content-Type and the Content-Length: both are signed headers, so storage
   * (MinIO, AWS S3, the embedded s3rver) answers 403 `SignatureDoesNotMatch` to a body of another size
   * or type, and a chunked upload without Content-Length is refused too.
   */
  presignPut(key: string, contentType: string, contentLength: number, expiresIn: number): Promise<string> {
    const put = new PutObjectCommand({ Bucket: this.cfg.bucket, Key: key, ContentType: contentType, ContentLength: contentLength });
    return getSignedUrl(this.presigner, put, { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) });
  }

  presignGet(key: string, expiresIn: number): Promise<string> {
    return getSignedUrl(this.presigner, new GetObjectCommand({ Bucket: this.cfg.bucket, Key: key }), { expiresIn });
  }

  /**
   * A URL for one operation on one key, signed for the in-cluster endpoint (`endpoint`, not `publicEndpoint`): what
   * a service without storage credentials (the worker) is handed. A PUT signs `contentType`; its size is not bound.
   */
  presignInternal(method: 'HEAD' | 'GET' | 'PUT', key: string, expiresIn: number, contentType?: string): Promise<string> {
    const target = { Bucket: this.cfg.bucket, Key: key };
    const command =
      method === 'HEAD'
        ? new HeadObjectCommand(target)
        : method === 'GET'
          ? new GetObjectCommand(target)
          : new PutObjectCommand({ ...target, ContentType: contentType });
    return getSignedUrl(this.client, command, { expiresIn, signableHeaders: new Set(method === 'PUT' ? ['content-type'] : []) });
  }

  /** Undefined when the object does not exist. */
  async head(key: string): Promise<ObjectHead | undefined> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
      return { size: Number(r.ContentLength ?? 0), contentType: r.ContentType };
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
      throw err;
    }
  }

  async getBytes(key: string): Promise<Uint8Array> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
    return r.Body!.transformToByteArray();
  }

  async put(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.cfg.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
  }

  /**
   * Readiness: a HEAD that answers 404 only when the bucket exists and the credentials are good (stands in
   * for HeadBucket, whose bucket-level signature the embedded s3rver rejects).
   */
  async ping(): Promise<void> {
    await this.head('.docket-health-probe');
  }

  destroy(): void {
    this.client.destroy();
    this.presigner.destroy();
  }
}

export function storageConfigFromEnv(env: {
  S3_ENDPOINT: string;
  S3_PUBLIC_ENDPOINT?: string;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
}): S3StorageConfig {
  return {
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  };
}
