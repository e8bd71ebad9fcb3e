import 'reflect-metadata';
import { bootstrap } from './bootstrap.js';

const h = await bootstrap();
let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  h.close().then(
    () => process.exit(0),
    (err) => {
      console.error(`template: error while closing on ${signal}`, err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
