import net from 'node:net';
import { freePort } from './infra.js';

/**
 * A TCP relay in front of a real server (Postgres, NATS) so a test can take the dependency away from one
 * service without stopping the machine's shared server: `cut()` drops every connection and refuses new
 * ones, `restore()` lets them through again.
 */
export interface TcpProxy {
  host: string;
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let down = false;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (down) return void client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dropAll = () => sockets.forEach((s) => s.destroy());
  return {
    host: '127.0.0.1',
    port,
    rewrite: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut: () => {
      down = true;
      dropAll();
    },
    restore: () => {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
