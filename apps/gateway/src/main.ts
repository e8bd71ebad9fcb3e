import { bootstrap } from './bootstrap.js';

const handle = await bootstrap();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
