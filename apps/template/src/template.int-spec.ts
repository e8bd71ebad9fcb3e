import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Subjects, type DeleteTemplateReply, type TemplateResponseDto, type TemplateSnapshot } from '@docket/contracts';
import { schemaStatus } from '@docket/database';
import type { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { createTestDatabase, freePort, rejectionOf, startTestNats, type TestDatabase, type TestNats } from '@docket/testing';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { startServiceApp } from '@docket/messaging';
import { testLogger } from '@docket/testing';
import pg from 'pg';
import { bootstrap, SCHEMA, type TemplateApp } from './bootstrap.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';

const A = 'acct_01templatetesta';
const B = 'acct_01templatetestb';

const invoiceFields = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
  { key: 'total', label: 'Total', data_type: 'currency' },
];

/** Stand-in `artifact` answering the in-use question; it is a real NATS responder, not a fake of NATS. */
const inUse = new Set<string>();
@Controller()
class ArtifactInUseHandler {
  @MessagePattern(Subjects.artifact.templateInUse)
  inUse(@Payload() q: { templateId: string }) {
    return { in_use: inUse.has(q.templateId) };
  }
}
@Module({ controllers: [ArtifactInUseHandler] })
class ArtifactInUseModule {}

describe('template service over NATS and Postgres', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let svc: TemplateApp;
  let rpc: RpcClient;
  let sql: pg.Client;

  const call = <T>(subject: string, payload: object) => rpc.request<T>(subject, payload);
  const fail = (subject: string, payload: object) => rejectionOf<DocketError>(rpc.request(subject, payload), subject);
  const create = (accountId: string, body: object) => call<TemplateResponseDto>(Subjects.template.create, { accountId, body });

  beforeAll(async () => {
    db = await createTestDatabase('docket_tpl');
    nats = await startTestNats();
    svc = await bootstrap({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      ARTIFACT_RPC_TIMEOUT_MS: '1000',
    });
    rpc = new RpcClient({ natsUrl: nats.url, name: 'template-test', timeoutMs: 5000 });
    await rpc.connect();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await rpc?.close();
    await svc?.close();
    await nats?.close();
    await db?.drop();
  });

  it('creates a template with spec defaults and a unique slug per account', async () => {
    const t = await create(A, { name: 'Supplier Invoice 2', fields: invoiceFields, settings: { confidence_threshold: 0.9 } });
    expect(t).toEqual({
      id: expect.stringMatching(/^tpl_[0-9a-z]{26}$/),
      user_id: A,
      name: 'Supplier Invoice 2',
      slug: 'supplier-invoice-2',
      description: '',
      category: 'custom',
      tags: [],
      schema_definition: {
        fields: [
          { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
          { key: 'total', label: 'Total', data_type: 'currency', required: false },
        ],
      },
      status: 'active',
      version: 1,
      is_public: false,
      usage_count: 0,
      settings: { auto_save: false, confidence_threshold: 0.9, ocr_engine: 'default', default_currency: null, partial_pages: false },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: t.created_at,
    });
    const again = await create(A, { name: 'supplier invoice 2!', fields: invoiceFields });
    expect(again.slug).toBe('supplier-invoice-2-2');
    const otherAccount = await create(B, { name: 'Supplier Invoice 2', fields: invoiceFields });
    expect(otherAccount.slug).toBe('supplier-invoice-2');
  });

  it('rejects duplicate field keys and invalid payloads', async () => {
    const dup = await fail(Subjects.template.create, {
      accountId: A,
      body: { name: 'Dup keys', fields: [invoiceFields[0], invoiceFields[0]] },
    });
    expect(dup).toMatchObject({ code: 'duplicate_field_key' });
    const bad = await fail(Subjects.template.create, { accountId: A, body: { name: 'x', fields: [{ key: 'A-b', data_type: 'nope' }] } });
    expect(bad).toMatchObject({ code: 'invalid_payload' });
  });

  it('refuses a validation pattern RE2 cannot run (lookaround, backreferences) with invalid_regex and the reason', async () => {
    const field = (regex: string) => ({ key: 'code', label: 'Code', data_type: 'string', validation: { regex } });
    const lookahead = await fail(Subjects.template.create, { accountId: A, body: { name: 'Lookahead', fields: [field('^(?=INV)\\w+$')] } });
    expect(lookahead).toMatchObject({ code: 'invalid_regex', message: expect.stringContaining('unsupported Perl syntax') });
    const backref = await fail(Subjects.template.create, { accountId: A, body: { name: 'Backref', fields: [field('^(a)\\1$')] } });
    expect(backref).toMatchObject({ code: 'invalid_regex' });
    // A pattern that backtracks catastrophically on RegExp is fine: RE2 runs it in linear time.
    expect((await create(A, { name: 'Nested quantifier', fields: [field('^(a+)+$')] })).version).toBe(1);
  });

  it('keeps partial_pages (ADR 0005) in settings and snapshots; templates saved before it read false; a non-boolean is a 422', async () => {
    const t = await create(A, { name: 'Partial reading', fields: invoiceFields, settings: { partial_pages: true } });
    expect(t.settings.partial_pages).toBe(true);
    const ref = { accountId: A, templateId: t.id };
    expect((await call<TemplateSnapshot>(Subjects.template.snapshot, ref)).settings.partial_pages).toBe(true);
    await sql.query(`UPDATE "template"."templates" SET "settings" = "settings" - 'partial_pages' WHERE "id" = $1`, [t.id]);
    expect((await call<TemplateSnapshot>(Subjects.template.snapshot, ref)).settings.partial_pages).toBe(false);
    expect(await fail(Subjects.template.update, { ...ref, body: { settings: { partial_pages: 'yes' } } })).toMatchObject({
      code: 'invalid_payload',
    });
  });

  it('keeps default_currency (ADR 0010) in settings and snapshots; null clears it; templates saved before it read null; a non-ISO code is a 422', async () => {
    const t = await create(A, { name: 'Euro default', fields: invoiceFields, settings: { default_currency: 'EUR' } });
    expect(t.settings.default_currency).toBe('EUR');
    const ref = { accountId: A, templateId: t.id };
    expect((await call<TemplateSnapshot>(Subjects.template.snapshot, ref)).settings.default_currency).toBe('EUR');
    expect(await fail(Subjects.template.update, { ...ref, body: { settings: { default_currency: 'euro' } } })).toMatchObject({
      code: 'invalid_payload',
    });
    await call(Subjects.template.update, { ...ref, body: { settings: { default_currency: null } } });
    expect((await call<TemplateSnapshot>(Subjects.template.snapshot, ref)).settings.default_currency).toBeNull();
    await sql.query(`UPDATE "template"."templates" SET "settings" = "settings" - 'default_currency' WHERE "id" = $1`, [t.id]);
    expect((await call<TemplateSnapshot>(Subjects.template.snapshot, ref)).settings.default_currency).toBeNull();
  });

  it('accepts the ocr_engine values default, tesseract and tesseract.js; anything else is a 422', async () => {
    const t = await create(A, { name: 'Native OCR', fields: invoiceFields, settings: { ocr_engine: 'tesseract' } });
    expect(t.settings).toEqual({
      auto_save: false,
      confidence_threshold: 0.7,
      ocr_engine: 'tesseract',
      default_currency: null,
      partial_pages: false,
    });
    const snap = await call<TemplateSnapshot>(Subjects.template.snapshot, { accountId: A, templateId: t.id });
    expect(snap.settings.ocr_engine).toBe('tesseract');
    const ref = { accountId: A, templateId: t.id };
    const u = await call<TemplateResponseDto>(Subjects.template.update, { ...ref, body: { settings: { ocr_engine: 'tesseract.js' } } });
    expect(u.settings.ocr_engine).toBe('tesseract.js');
    for (const ocr_engine of ['easyocr', 'TESSERACT', '', 7]) {
      expect(await fail(Subjects.template.update, { ...ref, body: { settings: { ocr_engine } } })).toMatchObject({
        code: 'invalid_payload',
      });
      expect(
        await fail(Subjects.template.create, { accountId: A, body: { name: 'Bad OCR', fields: invoiceFields, settings: { ocr_engine } } }),
      ).toMatchObject({ code: 'invalid_payload' });
    }
  });

  it('gets a template; 404 when missing, 403 for another account', async () => {
    const t = await create(A, { name: 'Receipt', category: 'receipt', tags: ['x'], fields: invoiceFields });
    await expect(call(Subjects.template.get, { accountId: A, templateId: t.id })).resolves.toEqual(t);
    expect(await fail(Subjects.template.get, { accountId: B, templateId: t.id })).toMatchObject({ code: 'forbidden' });
    expect(await fail(Subjects.template.get, { accountId: A, templateId: 'tpl_missing' })).toMatchObject({ code: 'template_not_found' });
    expect(await fail(Subjects.template.snapshot, { accountId: B, templateId: t.id })).toMatchObject({ code: 'forbidden' });
    expect(await fail(Subjects.template.snapshot, { accountId: A, templateId: 'tpl_missing' })).toMatchObject({
      code: 'template_not_found',
    });
  });

  it('snapshots the current version and counts uses', async () => {
    const t = await create(A, { name: 'Snap me', fields: invoiceFields });
    const snap = await call<TemplateSnapshot>(Subjects.template.snapshot, { accountId: A, templateId: t.id });
    expect(snap).toEqual({ template_id: t.id, version: 1, fields: t.schema_definition.fields, settings: t.settings });
    await call(Subjects.template.snapshot, { accountId: A, templateId: t.id });
    const after = await call<TemplateResponseDto>(Subjects.template.get, { accountId: A, templateId: t.id });
    expect(after.usage_count).toBe(2);
  });

  it('patches the schema into new immutable versions; old versions stay readable', async () => {
    const t = await create(A, { name: 'Patchable', fields: invoiceFields });
    const ref = { accountId: A, templateId: t.id };
    const v2 = await call<TemplateResponseDto>(Subjects.template.patchSchema, {
      ...ref,
      body: {
        add_fields: [{ key: 'due_date', label: 'Due', data_type: 'date' }],
        update_fields: [{ key: 'total', label: 'Amount', data_type: 'number' }],
        remove_fields: ['invoice_number', 'not_there'],
      },
    });
    expect(v2.version).toBe(2);
    expect(v2.schema_definition.fields).toEqual([
      { key: 'total', label: 'Amount', data_type: 'number', required: false },
      { key: 'due_date', label: 'Due', data_type: 'date', required: false },
    ]);
    expect(
      await fail(Subjects.template.patchSchema, { ...ref, body: { add_fields: [{ key: 'total', label: 'Total', data_type: 'number' }] } }),
    ).toMatchObject({ code: 'duplicate_field_key' });
    expect(
      await fail(Subjects.template.patchSchema, { ...ref, body: { update_fields: [{ key: 'nope', label: 'Nope', data_type: 'number' }] } }),
    ).toMatchObject({ code: 'field_not_found' });
    expect(await fail(Subjects.template.patchSchema, { accountId: B, templateId: t.id, body: { remove_fields: ['total'] } })).toMatchObject(
      { code: 'forbidden' },
    );

    const current = await call<TemplateSnapshot>(Subjects.template.snapshot, ref);
    expect(current).toMatchObject({ version: 2, fields: v2.schema_definition.fields });
    const v1 = await call<TemplateSnapshot>(Subjects.template.snapshot, { ...ref, version: 1 });
    expect(v1).toMatchObject({ version: 1, fields: t.schema_definition.fields });
    expect(await fail(Subjects.template.snapshot, { ...ref, version: 9 })).toMatchObject({ code: 'template_not_found' });

    const rows = await sql.query(`SELECT version, fields FROM "template"."template_versions" WHERE template_id = $1 ORDER BY version`, [
      t.id,
    ]);
    expect(rows.rows).toEqual([
      { version: 1, fields: t.schema_definition.fields },
      { version: 2, fields: v2.schema_definition.fields },
    ]);
  });

  it('updates with PUT semantics and enforces status transitions', async () => {
    const t = await create(A, { name: 'Updatable', fields: invoiceFields });
    const ref = { accountId: A, templateId: t.id };
    const u = await call<TemplateResponseDto>(Subjects.template.update, {
      ...ref,
      body: { description: 'Now described', settings: { auto_save: true } },
    });
    expect(u).toMatchObject({
      name: 'Updatable',
      description: 'Now described',
      slug: t.slug,
      version: 1,
      schema_definition: t.schema_definition,
    });
    expect(u.settings).toEqual({
      auto_save: true,
      confidence_threshold: 0.7,
      ocr_engine: 'default',
      default_currency: null,
      partial_pages: false,
    });
    const archived = await call<TemplateResponseDto>(Subjects.template.update, { ...ref, body: { status: 'archived' } });
    expect(archived.status).toBe('archived');
    expect(await fail(Subjects.template.update, { ...ref, body: { status: 'draft' } })).toMatchObject({ code: 'validation_failed' });
    expect(await fail(Subjects.template.patchSchema, { ...ref, body: { remove_fields: ['total'] } })).toMatchObject({
      code: 'validation_failed',
    });
    await expect(call(Subjects.template.update, { ...ref, body: { status: 'active' } })).resolves.toMatchObject({ status: 'active' });
  });

  it('clones into a fresh draft at version 1', async () => {
    const t = await create(A, { name: 'Original', fields: invoiceFields, settings: { confidence_threshold: 0.5 } });
    await call(Subjects.template.patchSchema, { accountId: A, templateId: t.id, body: { remove_fields: ['total'] } });
    const c = await call<TemplateResponseDto>(Subjects.template.clone, { accountId: A, templateId: t.id });
    expect(c).toMatchObject({ name: 'Original (clone)', slug: 'original-clone', status: 'draft', version: 1, usage_count: 0 });
    expect(c.id).not.toBe(t.id);
    expect(c.settings.confidence_threshold).toBe(0.5);
    expect(c.schema_definition.fields.map((f) => f.key)).toEqual(['invoice_number']);
    const reset = await call<TemplateResponseDto>(Subjects.template.clone, {
      accountId: A,
      templateId: t.id,
      body: { new_name: 'Copy two', include_settings: false },
    });
    expect(reset).toMatchObject({ name: 'Copy two', slug: 'copy-two', settings: { confidence_threshold: 0.7 } });
    expect(await fail(Subjects.template.clone, { accountId: B, templateId: t.id })).toMatchObject({ code: 'forbidden' });
    await expect(call(Subjects.template.update, { accountId: A, templateId: c.id, body: { status: 'active' } })).resolves.toMatchObject({
      status: 'active',
    });
  });

  it('lists with category, prefix search, paging; archived hidden by default', async () => {
    const acct = 'acct_01listing';
    const mk = (name: string, extra: object = {}) => create(acct, { name, fields: invoiceFields, ...extra });
    const alpha = await mk('Alpha invoice', { category: 'invoice' });
    const beta = await mk('Beta receipt', { category: 'receipt', description: 'Alphabet soup' });
    const gamma = await mk('Gamma 100%', { category: 'invoice' });
    await call(Subjects.template.update, { accountId: acct, templateId: gamma.id, body: { status: 'archived' } });
    const list = (query: object) =>
      call<TemplateResponseDto[]>(Subjects.template.list, { accountId: acct, query }).then((r) => r.map((t) => t.name));

    expect(await list({})).toEqual(['Beta receipt', 'Alpha invoice']);
    expect(await list({ include_archived: true })).toEqual(['Gamma 100%', 'Beta receipt', 'Alpha invoice']);
    expect(await list({ category: 'invoice' })).toEqual(['Alpha invoice']);
    expect(await list({ search: 'ALPH' })).toEqual(['Beta receipt', 'Alpha invoice']);
    expect(await list({ search: 'lpha' })).toEqual([]);
    expect(await list({ search: 'gamma 100%', include_archived: true })).toEqual(['Gamma 100%']);
    expect(await list({ search: 'g%', include_archived: true })).toEqual([]);
    expect(await list({ limit: 1, offset: 1 })).toEqual(['Alpha invoice']);
    expect(await fail(Subjects.template.list, { accountId: acct, query: { limit: 101 } })).toMatchObject({ code: 'invalid_payload' });
    expect((await call<TemplateResponseDto[]>(Subjects.template.list, { accountId: acct })).map((t) => t.id)).toEqual([beta.id, alpha.id]);
    await expect(call(Subjects.template.categories, { accountId: acct })).resolves.toEqual([
      'invoice',
      'receipt',
      'id_card',
      'contract',
      'custom',
    ]);
  });

  it('soft deletes (404 afterwards) and hard deletes only when artifact says unused', async () => {
    const soft = await create(A, { name: 'Soft gone', fields: invoiceFields });
    const softRef = { accountId: A, templateId: soft.id };
    expect(await fail(Subjects.template.delete, { accountId: B, templateId: soft.id })).toMatchObject({ code: 'forbidden' });
    await expect(call<DeleteTemplateReply>(Subjects.template.delete, softRef)).resolves.toEqual({
      id: soft.id,
      deleted: true,
      hard_delete: false,
    });
    expect(await fail(Subjects.template.get, softRef)).toMatchObject({ code: 'template_not_found' });
    expect(await fail(Subjects.template.snapshot, softRef)).toMatchObject({ code: 'template_not_found' });
    await expect(call(Subjects.template.snapshot, { ...softRef, version: 1 })).resolves.toMatchObject({ version: 1 });
    expect(await fail(Subjects.template.delete, softRef)).toMatchObject({ code: 'template_not_found' });

    const hard = await create(A, { name: 'Hard gone', fields: invoiceFields });
    const hardRef = { accountId: A, templateId: hard.id };
    // No artifact service is answering yet: refuse rather than delete blindly.
    expect(await fail(Subjects.template.delete, { ...hardRef, query: { hard_delete: true } })).toMatchObject({
      code: 'service_unavailable',
    });
    await expect(call(Subjects.template.get, hardRef)).resolves.toMatchObject({ id: hard.id });

    const artifact: INestApplication = await startServiceApp({
      service: 'artifact',
      module: ArtifactInUseModule,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log: testLogger(),
      checks: {},
    });
    try {
      inUse.add(hard.id);
      expect(await fail(Subjects.template.delete, { ...hardRef, query: { hard_delete: true } })).toMatchObject({ code: 'template_in_use' });
      inUse.delete(hard.id);
      await expect(call(Subjects.template.delete, { ...hardRef, query: { hard_delete: 'true' } })).resolves.toEqual({
        id: hard.id,
        deleted: true,
        hard_delete: true,
      });
    } finally {
      await artifact.close();
    }
    expect(await fail(Subjects.template.get, hardRef)).toMatchObject({ code: 'template_not_found' });
    const left = await sql.query(
      `SELECT (SELECT count(*) FROM "template"."templates" WHERE id = $1)::int AS t, (SELECT count(*) FROM "template"."template_versions" WHERE template_id = $1)::int AS v`,
      [hard.id],
    );
    expect(left.rows[0]).toEqual({ t: 0, v: 0 });
  });

  it('has no pending migrations and entities match the migrations', async () => {
    expect(await schemaStatus({ url: db.url, schema: SCHEMA, entities, migrations })).toEqual({ pendingMigrations: false, drift: [] });
  });
});
