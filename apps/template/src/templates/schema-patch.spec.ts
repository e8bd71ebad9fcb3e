import { describe, expect, it } from '@jest/globals';
import type { FieldDefDto } from '@docket/contracts';
import { applySchemaPatch, assertUniqueKeys, isEmptyPatch, normalizeFields } from './schema-patch.js';

const f = (key: string, extra: Partial<FieldDefDto> = {}): FieldDefDto =>
  ({ key, data_type: 'string', required: false, ...extra }) as FieldDefDto;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'no error';
};

describe('applySchemaPatch', () => {
  const current = [f('a', { label: 'A', required: true }), f('b'), f('c')];

  it('appends added fields in order', () => {
    expect(applySchemaPatch(current, { add_fields: [f('d'), f('e')] }).map((x) => x.key)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('rejects adding an existing key or the same key twice', () => {
    expect(codeOf(() => applySchemaPatch(current, { add_fields: [f('b')] }))).toBe('duplicate_field_key');
    expect(codeOf(() => applySchemaPatch(current, { add_fields: [f('d'), f('d')] }))).toBe('duplicate_field_key');
  });

  it('overwrites the whole field in place, resetting omitted attributes', () => {
    const out = applySchemaPatch(current, { update_fields: [{ key: 'a', data_type: 'number' } as FieldDefDto] });
    expect(out[0]).toEqual({ key: 'a', data_type: 'number', required: false });
    expect(out.map((x) => x.key)).toEqual(['a', 'b', 'c']);
  });

  it('404s an update of a missing key', () => {
    expect(codeOf(() => applySchemaPatch(current, { update_fields: [f('zz')] }))).toBe('field_not_found');
  });

  it('removes by key and ignores missing keys', () => {
    expect(applySchemaPatch(current, { remove_fields: ['b', 'nope'] }).map((x) => x.key)).toEqual(['a', 'c']);
  });

  it('applies update, then remove, then add, so one patch can replace a field', () => {
    const out = applySchemaPatch(current, {
      remove_fields: ['a'],
      add_fields: [f('a', { data_type: 'date' })],
      update_fields: [f('c', { label: 'C' })],
    });
    expect(out).toEqual([f('b'), f('c', { label: 'C' }), f('a', { data_type: 'date' })]);
  });

  it('never mutates the current fields', () => {
    const before = JSON.stringify(current);
    applySchemaPatch(current, { update_fields: [f('a')], remove_fields: ['b'], add_fields: [f('x')] });
    expect(JSON.stringify(current)).toBe(before);
  });

  it('checks duplicate columns inside table fields', () => {
    const table = f('items', { data_type: 'table', fields: [f('qty'), f('qty')] });
    expect(codeOf(() => applySchemaPatch(current, { add_fields: [table] }))).toBe('duplicate_field_key');
  });
});

describe('normalizeFields / assertUniqueKeys / isEmptyPatch', () => {
  it('makes required explicit and keeps only known attributes', () => {
    const raw = [{ key: 'items', data_type: 'table', fields: [{ key: 'qty', data_type: 'number' }], extra: 1 }] as unknown as FieldDefDto[];
    expect(normalizeFields(raw)).toEqual([
      { key: 'items', data_type: 'table', required: false, fields: [{ key: 'qty', data_type: 'number', required: false }] },
    ]);
  });

  it('detects duplicates', () => {
    expect(codeOf(() => assertUniqueKeys([f('a'), f('a')]))).toBe('duplicate_field_key');
    expect(codeOf(() => assertUniqueKeys([f('a'), f('b')]))).toBe('no error');
  });

  it('knows an empty patch', () => {
    expect(isEmptyPatch({})).toBe(true);
    expect(isEmptyPatch({ add_fields: [], remove_fields: [] })).toBe(true);
    expect(isEmptyPatch({ remove_fields: ['a'] })).toBe(false);
  });
});
