import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { natsInboxPrefix, Subjects, type NatsUserName } from '@docket/contracts';
import { startTestNats, type TestNats } from '@docket/testing';
import { natsAuth } from './index.js';

/**
 * The per-service NATS users of `servicePermissions`, enforced by a real nats-server: what a service
 * may not publish or subscribe to is refused by the server (a permission violation), and never reaches
 * the subject's subscribers.
 */
describe('NATS users per service (nats-server authorization)', () => {
  let nats: TestNats;
  let harness: NatsConnection;
  const connections: NatsConnection[] = [];

  const connectAs = async (user: NatsUserName) => {
    const env = nats.env(user);
    const nc = await connect({ servers: nats.url, ...natsAuth(env), name: `perm-test-${user}` });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    nats = await startTestNats();
    expect(nats.authorization).toBe(true);
    harness = await connect({ servers: nats.url, name: 'perm-test-harness' });
  });

  afterAll(async () => {
    await Promise.allSettled([...connections, harness].map((nc) => nc?.close()));
    await nats?.close();
  });

  it("refuses a worker's publish to billing.v1.> and the billing subscribers never see it", async () => {
    const seen: string[] = [];
    const firstSeen = new Promise<Msg>((resolve) =>
      harness.subscribe('billing.v1.>', {
        callback: (_e, m) => {
          seen.push(m.subject);
          resolve(m);
        },
      }),
    );
    await harness.flush();
    const worker = await connectAs('extraction-worker');

    const denied = worker.request(Subjects.billing.deposit, JSON.stringify({ accountId: 'acct_victim', credits: 1_000_000 }), {
      timeout: 5000,
    });
    await expect(denied).rejects.toThrow(`Permissions Violation for Publish to "${Subjects.billing.deposit}"`);

    // The refusal above came back after the server dropped the publish; a marker sent afterwards is the first thing billing sees.
    harness.publish(Subjects.billing.getWallet, 'marker');
    expect((await firstSeen).subject).toBe(Subjects.billing.getWallet);
    expect(seen).toEqual([Subjects.billing.getWallet]);
  });

  it("refuses operator-only billing subjects to the gateway, and serving another service's subjects", async () => {
    const gateway = await connectAs('gateway');
    await expect(gateway.request(Subjects.billing.deposit, '{}', { timeout: 5000 })).rejects.toThrow('Permissions Violation for Publish');

    const worker = await connectAs('extraction-worker');
    const sub = worker.subscribe(Subjects.billing.placeHold);
    const ended = (async () => {
      for await (const m of sub) void m; // ends with the server's refusal
    })();
    await expect(ended).rejects.toThrow(`Permissions Violation for Subscription to "${Subjects.billing.placeHold}"`);
  });

  it('lets each user do what its table grants (worker → artifact job outcome, admin → deposit)', async () => {
    harness.subscribe(Subjects.artifact.jobOutcome, { callback: (_e, m) => void m.respond('outcome ok') });
    harness.subscribe(Subjects.billing.deposit, { callback: (_e, m) => void m.respond('deposit ok') });
    await harness.flush();
    const worker = await connectAs('extraction-worker');
    const admin = await connectAs('admin');
    expect((await worker.request(Subjects.artifact.jobOutcome, '{}', { timeout: 5000 })).string()).toBe('outcome ok');
    expect((await admin.request(Subjects.billing.deposit, '{}', { timeout: 5000 })).string()).toBe('deposit ok');
  });

  it("keeps the gateway's replies (a webhook secret) from the worker: own inbox prefix, no `_INBOX.>`", async () => {
    const secretReply = 'whsec_invented-signing-secret';
    harness.subscribe(Subjects.webhook.create, { callback: (_e, m) => void m.respond(secretReply) });
    await harness.flush();
    const worker = await connectAs('extraction-worker');
    const refusals = ['_INBOX.>', `${natsInboxPrefix('gateway')}.>`, '>'].map((subject) => {
      const sub = worker.subscribe(subject);
      return (async () => {
        for await (const m of sub) return `the worker read ${m.subject}: ${m.string()}`;
        return 'ended without an error';
      })().catch((err: Error) => err.message);
    });
    await worker.flush();
    const gateway = await connectAs('gateway');
    const reply = await gateway.request(Subjects.webhook.create, '{}', { timeout: 5000 });

    // The gateway's request/reply works; the worker saw none of it, and its reply went to the gateway's own inbox.
    expect(reply.string()).toBe(secretReply);
    expect(await Promise.all(refusals)).toEqual(refusals.map(() => expect.stringMatching(/^Permissions Violation for Subscription/)));
    expect(reply.subject.startsWith(`${natsInboxPrefix('gateway')}.`)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    await expect(connect({ servers: nats.url, user: 'billing', pass: 'not-the-password', reconnect: false })).rejects.toThrow(
      /Authorization Violation/i,
    );
  });
});
