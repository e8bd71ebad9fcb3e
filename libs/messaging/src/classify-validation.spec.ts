import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import {
  CreateTemplateDto,
  CreateWebhookDto,
  ExtractRequestDto,
  ExtractionSchemaDto,
  MAX_ARTIFACT_BYTES,
  PatchTemplateSchemaDto,
} from '@docket/contracts';
import { classifyValidationErrors } from './rpc-server.js';

async function classify<T extends object>(cls: new () => T, body: Record<string, unknown>) {
  const errors = await validate(plainToInstance(cls, body));
  expect(errors.length).toBeGreaterThan(0);
  const err = classifyValidationErrors(errors, 'invalid_body');
  return { status: err.status, code: err.code, details: err.details as { field: string; constraints: Record<string, string> }[] };
}

const VALID = { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10 };

describe('classifyValidationErrors (spec §7: missing field 400, shape 422)', () => {
  it('reports a missing or null required field alone, as 400 validation_failed', async () => {
    const missing = await classify(ExtractRequestDto, { filename: 'a.pdf', artifact_type: 'application/pdf' });
    expect(missing).toEqual({
      status: 400,
      code: 'validation_failed',
      details: [{ field: 'artifact_size', constraints: { isDefined: expect.any(String) } }],
    });
    expect((await classify(ExtractRequestDto, { ...VALID, filename: null })).status).toBe(400);
    const empty = await classify(ExtractRequestDto, {});
    expect(empty.status).toBe(400);
    expect(empty.details.map((d) => d.field).sort()).toEqual(['artifact_size', 'artifact_type', 'filename']);
    // A missing field whose other rules carry a 400 code is still just missing.
    expect(await classify(CreateWebhookDto, { events: ['extraction.completed'] })).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });

  it('keeps a present field of the wrong type at 422, also next to a missing one', async () => {
    expect(await classify(ExtractRequestDto, { ...VALID, artifact_size: 'big' })).toMatchObject({ status: 422, code: 'invalid_body' });
    expect(await classify(ExtractRequestDto, { artifact_type: 'application/pdf', filename: 42 })).toMatchObject({
      status: 422,
      code: 'invalid_body',
    });
  });

  it('gives coded rules their own 400 code: size over the engine limit, unreadable type', async () => {
    expect(await classify(ExtractRequestDto, { ...VALID, artifact_size: 1e300 })).toMatchObject({ status: 400, code: 'file_too_large' });
    expect(await classify(ExtractRequestDto, { ...VALID, artifact_size: MAX_ARTIFACT_BYTES + 1 })).toMatchObject({
      status: 400,
      code: 'file_too_large',
    });
    const exe = await classify(ExtractRequestDto, { ...VALID, artifact_type: 'application/x-msdownload' });
    expect(exe).toMatchObject({ status: 400, code: 'unsupported_artifact_type' });
    expect(Object.values(exe.details[0]!.constraints)[0]).toContain('application/pdf');
    // Missing plus a coded rule: a 400, but no single code fits both.
    expect(await classify(ExtractRequestDto, { filename: 'a.pdf', artifact_type: 'application/x-msdownload' })).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });

  it('accepts the readable types case-insensitively', async () => {
    expect(await validate(plainToInstance(ExtractRequestDto, { ...VALID, artifact_type: 'IMAGE/PNG' }))).toEqual([]);
    expect(
      await validate(
        plainToInstance(ExtractRequestDto, { ...VALID, artifact_type: 'application/octet-stream', artifact_size: MAX_ARTIFACT_BYTES }),
      ),
    ).toEqual([]);
  });
});

describe('template bodies (spec §2.3, §4.5)', () => {
  it('POST /templates/ needs only `name`: `fields` is optional like every other property but the name', async () => {
    expect(await validate(plainToInstance(CreateTemplateDto, { name: 'Only a name' }))).toEqual([]);
    expect(await classify(CreateTemplateDto, {})).toEqual({
      status: 400,
      code: 'validation_failed',
      details: [{ field: 'name', constraints: { isDefined: expect.any(String) } }],
    });
  });

  it("requires a template field's `label` (TemplateFieldDef), on create and in add_fields / update_fields: 400 when missing", async () => {
    const noLabel = { key: 'total', data_type: 'currency' };
    expect(await classify(CreateTemplateDto, { name: 'Invoices', fields: [noLabel] })).toEqual({
      status: 400,
      code: 'validation_failed',
      details: [{ field: 'fields.0.label', constraints: { isDefined: expect.any(String) } }],
    });
    expect(await classify(PatchTemplateSchemaDto, { add_fields: [noLabel] })).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(await classify(PatchTemplateSchemaDto, { update_fields: [{ ...noLabel, label: null }] })).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
    expect(await classify(CreateTemplateDto, { name: 'Invoices', fields: [{ ...noLabel, label: 7 }] })).toMatchObject({
      status: 422,
      code: 'invalid_body',
    });
  });

  it('lets the inline-schema form of a field, and a table’s columns, omit the label', async () => {
    expect(await validate(plainToInstance(ExtractionSchemaDto, { fields: [{ key: 'total', data_type: 'currency' }] }))).toEqual([]);
    const table = { key: 'items', label: 'Items', data_type: 'table', fields: [{ key: 'qty', data_type: 'number' }] };
    expect(await validate(plainToInstance(CreateTemplateDto, { name: 'Line items', fields: [table] }))).toEqual([]);
  });
});
