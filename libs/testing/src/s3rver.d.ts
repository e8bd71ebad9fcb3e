declare module '@20minutes/s3rver';
