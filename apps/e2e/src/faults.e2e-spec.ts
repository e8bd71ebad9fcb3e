import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

/** A value that appears only in the extraction result: anything still holding it after a delete leaked it. */
const CANARY = 'CANARY7731Q';
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] };
/** The worker's default WORKER_MAX_DELIVER: processing attempts before a job is failed. */
const MAX_ATTEMPTS = 3;
const SCHEMAS = ['artifact', 'billing', 'template', 'webhook', 'identity'];

describe('faults and deletion (ADR 0008), all services as processes', () => {
  const suite = useE2eStack('Faults');
  const { api, settledWallet, waitTerminal } = apiHelpers(suite);
  let db: pg.Client;
  let pdf: Buffer;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: suite.stack.env.DATABASE_URL });
    await db.connect();
    // The suite helper's afterAll may drop the database first; its termination notice is expected then.
    db.on('error', () => undefined);
    pdf = await invoicePdf(['Vendor: Acme Corp', `Invoice Number: ${CANARY}`, 'Total: $10.00']);
  });
  afterAll(async () => {
    await db?.end();
  });

  async function submit(extra: object = {}) {
    const res = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'invoice.pdf', artifact_type: 'application/pdf', artifact_size: pdf.length, extraction_schema: SCHEMA, ...extra });
    expect(res.status).toBe(202);
    return res.body as { job_id: string; artifact_id: string; upload_url: string };
  }
  async function uploadAndConfirm(sub: { artifact_id: string; upload_url: string }) {
    expect((await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf })).status).toBe(200);
    await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
  }

  it('a job whose processing attempts are used up becomes failed (processing_error) and its hold is released', async () => {
    const before = await settledWallet();
    const sub = await submit();
    // As if MAX_ATTEMPTS earlier pickups had crashed their worker (artifact counts attempts, not JetStream).
    await db.query(`UPDATE "artifact"."jobs" SET "attempts" = $2 WHERE "id" = $1`, [sub.job_id, MAX_ATTEMPTS]);
    await uploadAndConfirm(sub);

    const job = await waitTerminal(sub.job_id);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/^processing_error: /) });
    expect(job.result).toBeUndefined();
    // The normal outcome path: artifact applied it, the job-finished event made billing release the hold.
    expect(await settledWallet()).toMatchObject({ balance: before.balance, spendable: before.balance });
    const hold = (await db.query(`SELECT "state", "outcome", "charged_micro" FROM "billing"."holds" WHERE "job_id" = $1`, [sub.job_id]))
      .rows[0];
    expect(hold).toMatchObject({ state: 'released', outcome: 'failed' });
    const charges = await db.query(`SELECT count(*)::int AS n FROM "billing"."ledger_entries" WHERE "job_id" = $1 AND "kind" = 'charge'`, [
      sub.job_id,
    ]);
    expect(charges.rows[0].n).toBe(0);
  });

  it('DELETE /artifacts/{id} leaves nothing behind: not in storage, not in any schema, not in any stream', async () => {
    const sub = await submit({ webhook_url: suite.stack.receiverUrl });
    await uploadAndConfirm(sub);
    const job = await waitTerminal(sub.job_id);
    expect(job).toMatchObject({ status: 'success', result: { invoice_number: CANARY } });
    // The webhook still carries the result: the dispatcher fetched it by reference (the event has none).
    const delivery = await expectDelivery(sub.job_id);
    expect(JSON.parse(delivery.body).data.result).toEqual({ invoice_number: CANARY });

    await api().delete(`/artifacts/${sub.artifact_id}`).set('authorization', suite.live).expect(204);

    // Storage: no object of the artifact (raw upload, result JSON, Markdown) and no file holding the result.
    const files = (await readdir(suite.stack.s3Directory, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0); // the other test's objects are still there: the grep looks at real storage
    for (const f of files) {
      const path = join(f.parentPath, f.name);
      expect({ path, ofArtifact: path.includes(sub.artifact_id), leaks: (await readFile(path)).includes(CANARY) }).toEqual({
        path,
        ofArtifact: false,
        leaks: false,
      });
    }

    // Database: no row of any service holds the result; artifact holds nothing of the artifact or its job.
    for (const schema of SCHEMAS) {
      const tables = (
        await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [schema])
      ).rows;
      for (const { table_name: table } of tables as { table_name: string }[]) {
        const hits = await db.query(`SELECT count(*)::int AS n FROM "${schema}"."${table}" t WHERE row_to_json(t)::text LIKE $1`, [
          `%${CANARY}%`,
        ]);
        expect({ table: `${schema}.${table}`, rows: hits.rows[0].n }).toEqual({ table: `${schema}.${table}`, rows: 0 });
        if (schema !== 'artifact') continue;
        const refs = await db.query(
          `SELECT count(*)::int AS n FROM "${schema}"."${table}" t WHERE row_to_json(t)::text LIKE $1 OR row_to_json(t)::text LIKE $2`,
          [`%${sub.artifact_id}%`, `%${sub.job_id}%`],
        );
        expect({ table: `${schema}.${table}`, rows: refs.rows[0].n }).toEqual({ table: `${schema}.${table}`, rows: 0 });
      }
    }

    // Streams: no message of any stream carries the result (events carry references; run messages are acked away).
    const nc = await connect({ servers: suite.stack.env.NATS_URL });
    try {
      const jsm = await jetstreamManager(nc);
      let references = 0;
      for await (const stream of jsm.streams.list()) {
        const { first_seq: first, last_seq: last } = stream.state;
        for (let seq = first; seq > 0 && seq <= last; seq++) {
          const m = await jsm.streams.getMessage(stream.config.name, { seq }).catch(() => null);
          if (!m) continue;
          if (m.string().includes(sub.job_id)) references++;
          expect({ stream: stream.config.name, seq, leaks: m.string().includes(CANARY) }).toEqual({
            stream: stream.config.name,
            seq,
            leaks: false,
          });
        }
      }
      expect(references).toBeGreaterThan(0); // the job-finished event is still there, as a reference: the grep saw it
    } finally {
      await nc.close();
    }
  });

  function expectDelivery(jobId: string) {
    return expectEventually(
      () => {
        const d = suite.stack.deliveries.find((x) => String(x.headers['x-webhook-id']).startsWith(jobId));
        if (!d) throw new Error('no webhook delivery yet');
        return d;
      },
      { timeoutMs: 60_000, what: 'webhook delivery' },
    );
  }
});
