export * from './s3-storage.js';
export * from './presigned-object.js';
