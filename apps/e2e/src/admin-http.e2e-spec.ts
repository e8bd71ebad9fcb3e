import { describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { apiHelpers, basic, useE2eStack } from './stack.test-helper.js';

// An invented operator token (at least ADMIN_TOKEN_MIN_LENGTH characters).
const ADMIN_TOKEN = 'e2e-operator-token-0123456789abcdefghijkl';
const ADMIN = `Bearer ${ADMIN_TOKEN}`;

jest.setTimeout(180_000);

interface Issued {
  api_key: string;
  secret_id: string;
  secret: string;
}

describe('admin routes on the gateway (ADMIN_TOKEN; the admin CLI’s operations over HTTP)', () => {
  // LOG_LEVEL info: the gateway logs every request, so the no-secret-in-logs check reads real request lines.
  const suite = useE2eStack('Admin http', { ADMIN_TOKEN, LOG_LEVEL: 'info' });
  const { api } = apiHelpers(suite);
  const issued: string[] = [];

  it('refuses without a token (401), with an API key (401) and with a wrong token (403), in the one envelope', async () => {
    const none = await api().get('/admin/accounts').expect(401);
    expect(none.body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    expect(none.body.request_id).toEqual(expect.any(String));
    expect((await api().get('/admin/accounts').set('authorization', suite.live).expect(401)).body.code).toBe('unauthorized');
    const wrong = await api().post('/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}x`).send({ name: 'Nope' }).expect(403);
    expect(wrong.body).toMatchObject({ statusCode: 403, code: 'forbidden' });
    // The token is not an API key either: Basic with it as the secret is still 401.
    await api().get('/wallet').set('authorization', basic(suite.acct.live.api_key, ADMIN_TOKEN)).expect(401);
  });

  it('creates an account whose credentials work once shown, and lists it without any secret', async () => {
    const created = await api()
      .post('/admin/accounts')
      .set('authorization', ADMIN)
      .send({ name: 'Operator made', credits: 40 })
      .expect(201);
    const { account_id, live, sandbox } = created.body as { account_id: string; live: Issued; sandbox: Issued };
    issued.push(live.secret, sandbox.secret);
    const wallet = await api().get('/wallet').set('authorization', basic(live.api_key, live.secret)).expect(200);
    expect(wallet.body).toMatchObject({ balance: 40, is_frozen: false });

    const listed = await api().get('/admin/accounts?size=100').set('authorization', ADMIN).expect(200);
    const mine = listed.body.accounts.find((a: { account_id: string }) => a.account_id === account_id);
    expect(mine).toMatchObject({ name: 'Operator made' });
    expect(mine.keys.map((k: { api_key: string }) => k.api_key).sort()).toEqual([live.api_key, sandbox.api_key].sort());
    expect(listed.body.total).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(listed.body)).not.toContain(live.secret);
    expect(JSON.stringify(listed.body)).not.toMatch(/"secret"/);
  });

  it('deposits, freezes (new jobs 402), unfreezes and reads the wallet of an account', async () => {
    const id = suite.other.account_id;
    const before = (await api().get(`/admin/accounts/${id}/wallet`).set('authorization', ADMIN).expect(200)).body;
    const after = (await api().post(`/admin/accounts/${id}/deposit`).set('authorization', ADMIN).send({ credits: 25 }).expect(200)).body;
    expect(after.balance).toBe(before.balance + 25);
    const frozen = (await api().post(`/admin/accounts/${id}/freeze`).set('authorization', ADMIN).send({}).expect(200)).body;
    expect(frozen).toMatchObject({ is_frozen: true, frozen_reason: 'manual_freeze' });
    const submit = { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 1000 };
    await api().post('/extract').set('authorization', suite.otherLive).send(submit).expect(402);
    const thawed = await api().post(`/admin/accounts/${id}/unfreeze`).set('authorization', ADMIN).expect(200);
    expect(thawed.body.is_frozen).toBe(false);
  });

  it('rotates a secret (shown once), lists secrets, revokes the old one, then the key', async () => {
    const created = await api().post('/admin/accounts').set('authorization', ADMIN).send({ name: 'Rotating' }).expect(201);
    const live = created.body.live as Issued;
    issued.push(live.secret, created.body.sandbox.secret);
    const rotated = (await api().post(`/admin/keys/${live.api_key}/secrets`).set('authorization', ADMIN).expect(201)).body as Issued;
    issued.push(rotated.secret);
    expect(rotated.secret).not.toBe(live.secret);
    await api().get('/wallet').set('authorization', basic(live.api_key, rotated.secret)).expect(200);

    const secrets = (await api().get(`/admin/keys/${live.api_key}/secrets`).set('authorization', ADMIN).expect(200)).body;
    expect(secrets.secrets.map((s: { secret_id: string }) => s.secret_id)).toEqual([live.secret_id, rotated.secret_id]);
    const revoked = await api().delete(`/admin/keys/${live.api_key}/secrets/${live.secret_id}`).set('authorization', ADMIN).expect(200);
    expect(revoked.body).toMatchObject({ api_key: live.api_key, secret_id: live.secret_id, revoked_at: expect.any(String) });
    await expectEventually(() => api().get('/wallet').set('authorization', basic(live.api_key, live.secret)).expect(401));
    await api().get('/wallet').set('authorization', basic(live.api_key, rotated.secret)).expect(200);

    await api().delete(`/admin/keys/${live.api_key}`).set('authorization', ADMIN).expect(200);
    await expectEventually(() => api().get('/wallet').set('authorization', basic(live.api_key, rotated.secret)).expect(401));
    // A revoked key gets no new secret.
    expect((await api().post(`/admin/keys/${live.api_key}/secrets`).set('authorization', ADMIN).expect(409)).body.code).toBe('conflict');
  });

  it('sets and drops a key’s rate-limit override', async () => {
    const key = suite.acct.sandbox.api_key;
    const set = await api().put(`/admin/keys/${key}/rate-limit`).set('authorization', ADMIN).send({ per_minute: 1234 }).expect(200);
    expect(set.body).toMatchObject({ api_key: key, requests_per_minute: 1234, source: 'override' });
    const dropped = await api().put(`/admin/keys/${key}/rate-limit`).set('authorization', ADMIN).send({ per_minute: null }).expect(200);
    expect(dropped.body).toMatchObject({ api_key: key, source: 'default' });
  });

  it('answers bad input with a 4xx envelope, never a 5xx', async () => {
    const cases: [string, string, unknown, number, string][] = [
      // A missing required field is 400 validation_failed (README, Limits); a present one of the wrong shape 422.
      ['post', '/admin/accounts', {}, 400, 'validation_failed'],
      ['post', '/admin/accounts', { name: 'Fine', credits: -1 }, 422, 'invalid_body'],
      ['post', '/admin/accounts', { name: 'x'.repeat(201) }, 422, 'invalid_body'],
      ['post', '/admin/accounts', { name: '   ' }, 400, 'validation_failed'],
      ['get', '/admin/accounts?size=0', undefined, 422, 'invalid_query'],
      ['post', `/admin/accounts/${suite.acct.account_id}/deposit`, { credits: 'ten' }, 422, 'invalid_body'],
      ['post', `/admin/accounts/${suite.acct.account_id}/deposit`, {}, 400, 'validation_failed'],
      ['post', '/admin/accounts/acct_nobody/deposit', { credits: 1 }, 404, 'wallet_not_found'],
      ['post', '/admin/accounts/ACCT-1/unfreeze', undefined, 422, 'invalid_query'],
      ['post', `/admin/accounts/${suite.acct.account_id}/freeze`, { reason: 'DROP TABLE' }, 422, 'invalid_body'],
      ['get', '/admin/keys/not-a-key/secrets', undefined, 400, 'validation_failed'],
      ['post', '/admin/keys/dk_live_000000000000000000000000/secrets', undefined, 404, 'not_found'],
      ['delete', `/admin/keys/${suite.acct.live.api_key}/secrets/sec_unknown`, undefined, 404, 'not_found'],
      ['put', `/admin/keys/${suite.acct.live.api_key}/rate-limit`, { per_minute: 0 }, 422, 'invalid_body'],
      ['put', `/admin/keys/${suite.acct.live.api_key}/rate-limit`, {}, 400, 'validation_failed'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const req = (api() as unknown as Record<string, (p: string) => ReturnType<ReturnType<typeof api>['get']>>)[method](path);
      const res = await req.set('authorization', ADMIN).send(body as object);
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status, code });
    }
  });

  it('never writes the admin token or an issued secret to the logs', async () => {
    const lines = suite.stack.logLines;
    expect(lines.some((l) => l.includes('/admin/accounts'))).toBe(true);
    for (const secret of [ADMIN_TOKEN, ...issued]) expect(lines.filter((l) => l.includes(secret))).toEqual([]);
  });
});
