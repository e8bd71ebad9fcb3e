import 'reflect-metadata';
import { bootstrap } from './bootstrap.js';

const h = await bootstrap();
let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await h.close().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
