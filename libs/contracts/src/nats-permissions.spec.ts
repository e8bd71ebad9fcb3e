import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { NATS_USERS, natsPermissions, renderNatsAuthorization, servicePermissions, Subjects, type ServiceName } from './index.js';

const requestSubjects = Object.entries(Subjects)
  .filter(([group]) => group !== 'health')
  .flatMap(([, g]) => Object.values(g as Record<string, string>));

describe('servicePermissions (the NATS users table)', () => {
  it('has exactly one server for every request subject, the service that owns its namespace', () => {
    for (const subject of requestSubjects) {
      const servers = NATS_USERS.filter((u) => servicePermissions[u].serves.includes(subject));
      expect({ subject, servers }).toEqual({ subject, servers: [ownerOf(subject)] });
    }
  });

  it('lets only the operator (admin) call wallet deposits; the worker nothing in billing', () => {
    const callers = NATS_USERS.filter((u) =>
      natsPermissions(u).publish.some((p) => p === Subjects.billing.deposit || p.startsWith('billing.v1.>')),
    );
    expect(callers).toEqual(['admin']);
    expect(natsPermissions('extraction-worker').publish.filter((p) => p.startsWith('billing.'))).toEqual([]);
  });

  it('gives no user a wildcard publish right outside its own JetStream consumer', () => {
    for (const u of NATS_USERS) {
      const wild = natsPermissions(u).publish.filter((p) => /[*>]/.test(p) && !p.startsWith('$JS.'));
      expect({ u, wild }).toEqual({ u, wild: [] });
    }
  });

  it('matches the committed development nats-server config (k8s/components/dev-infra/nats-auth.conf)', () => {
    const committed = readFileSync(new URL('../../../k8s/components/dev-infra/nats-auth.conf', import.meta.url), 'utf8').replace(
      /^#.*\n/gm,
      '',
    );
    const dev = Object.fromEntries(NATS_USERS.map((u) => [u, `docket-dev-nats-${u}`]));
    expect(committed).toBe(renderNatsAuthorization(dev));
  });
});

function ownerOf(subject: string): ServiceName {
  const prefix = subject.split('.')[0];
  return prefix === 'webhook' ? 'webhook-dispatcher' : (prefix as ServiceName);
}
