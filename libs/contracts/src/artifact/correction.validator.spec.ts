import { describe, expect, it } from '@jest/globals';
import type { FieldDefDto } from '../common/field-def.dto.js';
import { changedFieldKeys, correctionProblems } from './correction.validator.js';

const schema: { fields: FieldDefDto[] } = {
  fields: [
    { key: 'ref', data_type: 'string', validation: { regex: '^R-\\d{3}$' } },
    { key: 'when', data_type: 'date' },
    { key: 'amount', data_type: 'currency', validation: { min_value: 0, max_value: 1000 } },
    { key: 'count', data_type: 'number', required: true },
    { key: 'ok', data_type: 'boolean' },
    {
      key: 'lines',
      data_type: 'table',
      fields: [
        { key: 'item', data_type: 'string' },
        { key: 'qty', data_type: 'number', validation: { min_value: 1 } },
      ],
    },
  ],
};

const fieldsOf = (values: Record<string, unknown>) => correctionProblems(schema, values, 'acct_test').map((p) => p.field);

describe('correctionProblems', () => {
  it('accepts values that fit the type and the rules', () => {
    expect(
      fieldsOf({
        ref: 'R-123',
        when: '2024-02-29',
        amount: { value: 10.5, currency: 'EUR' },
        count: 3,
        ok: false,
        lines: [{ item: 'Widget', qty: 2 }],
      }),
    ).toEqual([]);
    expect(fieldsOf({ amount: { value: 1, currency: null }, ref: null, lines: [] })).toEqual([]);
  });

  it('refuses unknown fields, wrong types and broken rules, one problem per field', () => {
    expect(fieldsOf({ nope: 1 })).toEqual(['nope']);
    expect(fieldsOf({ ref: 'X-1' })).toEqual(['ref']);
    expect(fieldsOf({ ref: 5 })).toEqual(['ref']);
    expect(fieldsOf({ when: '2023-02-29' })).toEqual(['when']);
    expect(fieldsOf({ when: '01/02/2023' })).toEqual(['when']);
    expect(fieldsOf({ amount: { value: 2000, currency: 'EUR' } })).toEqual(['amount']);
    expect(fieldsOf({ amount: { value: 1, currency: 'euro' } })).toEqual(['amount']);
    expect(fieldsOf({ amount: { value: 1, currency: 'EUR', extra: 1 } })).toEqual(['amount']);
    expect(fieldsOf({ count: Number.NaN })).toEqual(['count']);
    expect(fieldsOf({ count: null })).toEqual(['count']);
    expect(fieldsOf({ ok: 'yes' })).toEqual(['ok']);
    expect(fieldsOf({ lines: { item: 'x' } })).toEqual(['lines']);
    expect(fieldsOf({ lines: [{ item: 'x', qty: 0 }, { colour: 'red' }] })).toEqual(['lines[0].qty', 'lines[1].colour']);
  });
});

describe('changedFieldKeys', () => {
  it('names the keys whose value differs, added or removed', () => {
    expect(changedFieldKeys({ a: 1, b: { v: 1 }, c: 'x' }, { a: 1, b: { v: 2 }, d: true })).toEqual(['b', 'c', 'd']);
    expect(changedFieldKeys({ a: [1] }, { a: [1] })).toEqual([]);
  });
});
