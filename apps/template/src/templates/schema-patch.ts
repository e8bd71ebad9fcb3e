import { assertPatternsWithinShare, findDuplicateKeys, type FieldDefDto } from '@docket/contracts';

/**
 * A schema patch as applied (`PatchTemplateSchemaDto` once validated: its fields have labels, which the patch itself
 * does not depend on).
 */
export interface SchemaPatch {
  add_fields?: FieldDefDto[];
  update_fields?: FieldDefDto[];
  remove_fields?: string[];
}
import { DocketError } from '@docket/errors';

/**
 * Stored field definitions: plain JSON, `required` made explicit (spec §2.3 default false), so a
 * whole-field overwrite by `update_fields` resets omitted attributes to their defaults.
 */
export function normalizeFields(fields: FieldDefDto[]): FieldDefDto[] {
  return fields.map((f) => {
    const out: FieldDefDto = { key: f.key, data_type: f.data_type, required: f.required ?? false } as FieldDefDto;
    if (f.label !== undefined) out.label = f.label;
    if (f.description !== undefined) out.description = f.description;
    if (f.validation !== undefined) out.validation = JSON.parse(JSON.stringify(f.validation)) as FieldDefDto['validation'];
    if (f.fields !== undefined) out.fields = normalizeFields(f.fields);
    return out;
  });
}

/** Duplicate keys (top level, or columns inside one table field) are a 400 `duplicate_field_key`. */
export function assertUniqueKeys(fields: FieldDefDto[]): void {
  const dup = findDuplicateKeys(fields);
  if (dup.length)
    throw new DocketError(
      'duplicate_field_key',
      `Duplicate field key: ${dup.join(', ')}`,
      dup.map((key) => ({ key })),
    );
}

export function isEmptyPatch(patch: SchemaPatch): boolean {
  return !patch.add_fields?.length && !patch.update_fields?.length && !patch.remove_fields?.length;
}

/**
 * Spec §4.5 patch rules, applied in a fixed order so one request can replace a field:
 * 1. update_fields: overwrite the whole field in place by key; 404 `field_not_found` if missing.
 * 2. remove_fields: delete by key; missing keys are ignored.
 * 3. add_fields: append in the given order; 400 `duplicate_field_key` if the key exists.
 * The patched schema's patterns must still fit one account's share (400 `patterns_too_large`, ADR 0007).
 * Pure: returns a new array, never mutates `current`.
 */
export function applySchemaPatch(current: FieldDefDto[], patch: SchemaPatch): FieldDefDto[] {
  let fields = [...current];

  const updates = normalizeFields(patch.update_fields ?? []);
  assertUniqueKeys(updates);
  const missing = updates.filter((u) => !fields.some((f) => f.key === u.key)).map((u) => u.key);
  if (missing.length) {
    throw new DocketError(
      'field_not_found',
      `No field with key: ${missing.join(', ')}`,
      missing.map((key) => ({ key })),
    );
  }
  const byKey = new Map(updates.map((u) => [u.key, u]));
  fields = fields.map((f) => byKey.get(f.key) ?? f);

  const remove = new Set(patch.remove_fields ?? []);
  fields = fields.filter((f) => !remove.has(f.key));

  const adds = normalizeFields(patch.add_fields ?? []);
  const clashes = adds.filter((a) => fields.some((f) => f.key === a.key)).map((a) => a.key);
  if (clashes.length) {
    throw new DocketError(
      'duplicate_field_key',
      `Field key already exists: ${clashes.join(', ')}`,
      clashes.map((key) => ({ key })),
    );
  }
  fields = [...fields, ...adds];
  assertUniqueKeys(fields);
  assertPatternsWithinShare(fields);
  return fields;
}
