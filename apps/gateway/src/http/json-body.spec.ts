import { describe, expect, it } from '@jest/globals';
import { MAX_JSON_DEPTH } from '@docket/contracts';
import { isJsonObject, jsonDepth } from './json-body.js';

describe('jsonDepth', () => {
  it('counts object and array levels; scalars are depth 0', () => {
    expect(jsonDepth('x')).toBe(0);
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
  });

  it('stops early past the limit without recursion, however deep the value', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(jsonDepth(v)).toBe(MAX_JSON_DEPTH + 1);
  });
});

describe('isJsonObject', () => {
  it('accepts objects only: arrays, strings, numbers, booleans and null are not request bodies', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: [] })).toBe(true);
    for (const v of [[], [{}], 'text', 42, true, null]) expect(isJsonObject(v)).toBe(false);
  });
});
