import { describe, expect, it, jest } from '@jest/globals';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', validation: { regex: '^INV-\\d+$' } }] };
/** JSON bodies that parse but are not objects. */
const NOT_OBJECTS = ['[]', JSON.stringify([SCHEMA]), '"text"', '42', 'true', 'null'];

/** The spec's error envelope (ADR 0001): every 4xx carries it. */
function expectEnvelope(body: Record<string, unknown>, status: number, code: string) {
  expect(body).toMatchObject({
    statusCode: status,
    error: expect.any(String),
    code,
    message: expect.any(String),
    request_id: expect.any(String),
  });
}

/** Distinct patterns of ~1000 compiled instructions each (≈ 168 KB estimated): `count` fields from key f`from`. */
function heavyFields(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => ({
    key: `f${from + i}`,
    label: `F${from + i}`,
    data_type: 'string',
    validation: { regex: `^[a-z]{${1000 - from - i}}$` },
  }));
}

describe('Issue 20, items 3 and 7: body shapes and the share of compiled patterns (public HTTP only)', () => {
  const suite = useE2eStack('Body shape and pattern share');
  const { api } = apiHelpers(suite);

  it('item 7: a JSON body that is not an object is 422 invalid_body on every POST/PUT/PATCH', async () => {
    const tpl = (
      await api().post('/templates/').set('authorization', suite.live).send({ name: 'Shapes', fields: SCHEMA.fields }).expect(201)
    ).body;
    const hook = (
      await api()
        .post('/webhooks/')
        .set('authorization', suite.live)
        .send({ url: suite.stack.receiverUrl, events: ['extraction.completed'] })
        .expect(201)
    ).body;
    const pipelineId = (await api().get('/pipelines').set('authorization', suite.live).expect(200)).body[0].id;
    const routes: ['post' | 'put' | 'patch', string][] = [
      ['post', '/extract'],
      ['post', '/batch'],
      ['post', '/artifacts/request-batch-upload'],
      ['post', '/pipeline_async'],
      ['post', '/templates/'],
      ['put', `/templates/${tpl.id}`],
      ['patch', `/templates/${tpl.id}/schema`],
      ['post', `/templates/${tpl.id}/clone`],
      ['post', '/webhooks/'],
      ['patch', `/webhooks/${hook.id}`],
      ['post', `/webhooks/${hook.id}/rotate-secret`],
      ['patch', `/pipelines/${pipelineId}`],
      ['patch', '/artifacts/art_missing'],
    ];
    for (const [method, path] of routes) {
      for (const body of NOT_OBJECTS) {
        const res = await api()[method](path).set('authorization', suite.live).set('content-type', 'application/json').send(body);
        expect({ method, path, body, status: res.status }).toEqual({ method, path, body, status: 422 });
        expectEnvelope(res.body, 422, 'invalid_body');
      }
    }
    // An object is still read as before.
    await api().put(`/templates/${tpl.id}`).set('authorization', suite.live).send({ name: 'Shapes renamed' }).expect(200);
  });

  it("item 3: a template or schema whose patterns exceed an account's share is 400 patterns_too_large; one within it is saved", async () => {
    const tooMany = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({ name: 'Heavy', fields: heavyFields(60) })
      .expect(400);
    expectEnvelope(tooMany.body, 400, 'patterns_too_large');
    expect(tooMany.body.message).toMatch(/KiB/);
    const inline = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 100, extraction_schema: { fields: heavyFields(60) } })
      .expect(400);
    expectEnvelope(inline.body, 400, 'patterns_too_large');

    const tpl = (
      await api()
        .post('/templates/')
        .set('authorization', suite.live)
        .send({ name: 'Half heavy', fields: heavyFields(30) })
        .expect(201)
    ).body;
    // Each half fits; together they do not: the template service checks the patched schema.
    const patched = await api()
      .patch(`/templates/${tpl.id}/schema`)
      .set('authorization', suite.live)
      .send({ add_fields: heavyFields(30, 30) })
      .expect(400);
    expectEnvelope(patched.body, 400, 'patterns_too_large');
    expect((await api().get(`/templates/${tpl.id}`).set('authorization', suite.live).expect(200)).body.version).toBe(1);
  });
});
