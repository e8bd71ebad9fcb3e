import { describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { freePort, portBand } from './infra.js';

/** The first port of Linux's ephemeral range (ip_local_port_range 32768–60999): outgoing connections take ports from there. */
const EPHEMERAL_MIN = 32768;

describe('freePort: below the ephemeral range, one band per Jest worker', () => {
  it('gives workers 1–4 disjoint bands under the ephemeral range, and the whole range outside Jest', () => {
    const bands = [1, 2, 3, 4].map((id) => portBand(String(id)));
    for (const [i, a] of bands.entries()) {
      expect(a.min).toBeLessThan(a.max);
      expect(a.max).toBeLessThanOrEqual(EPHEMERAL_MIN);
      for (const b of bands.slice(i + 1)) expect(a.max <= b.min || b.max <= a.min).toBe(true);
    }
    const all = portBand(undefined);
    expect(all.min).toBe(bands[0].min);
    expect(all.max).toBe(bands[3].max);
    expect(portBand('5')).toEqual(bands[0]);
  });

  it("hands out distinct ports of this worker's band that a server can bind", async () => {
    const { min, max } = portBand(process.env.JEST_WORKER_ID);
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(min);
      expect(p).toBeLessThan(max);
    }
    const srv = net.createServer();
    await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
    await new Promise((r) => srv.close(r));
  });
});
