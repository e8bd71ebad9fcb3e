export * from './s3-storage.js';
export * from './embedded-s3.js';
export * from './presigned-object.js';
