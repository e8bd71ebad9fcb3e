import { describe, expect, it } from '@jest/globals';
import type { FieldDef, FieldMeta } from '../engine.types.js';
import { validateDocument } from './document.validation.js';

const fields: FieldDef[] = [
  { key: 'order_no', data_type: 'string', required: true },
  { key: 'placed_on', data_type: 'date' },
];

describe('validation stage', () => {
  it('scales the mean confidence by the share of required fields found and asks for review under the threshold', () => {
    const meta: Record<string, FieldMeta> = { order_no: { confidence: 0.9, errors: [] }, placed_on: { confidence: 0.7, errors: [] } };
    expect(validateDocument(fields, { order_no: 'PO-7', placed_on: '2031-02-14' }, meta, {})).toEqual({
      confidence: 0.8,
      needsReview: false,
    });
    expect(validateDocument(fields, { order_no: 'PO-7', placed_on: '2031-02-14' }, meta, { confidenceThreshold: 0.85 }).needsReview).toBe(
      true,
    );
    const partial = validateDocument(fields, { placed_on: '2031-02-14' }, { placed_on: { confidence: 0.7, errors: [] } }, {});
    expect(partial).toEqual({ confidence: 0, needsReview: true });
  });

  it('fails with required_field_missing when a required field is missing and nothing was found', () => {
    expect(() => validateDocument(fields, {}, {}, {})).toThrow(expect.objectContaining({ code: 'required_field_missing' }));
  });
});
