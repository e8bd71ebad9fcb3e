import { describe, expect, it } from '@jest/globals';
import { parseBoolean } from './boolean.parser.js';

describe('parseBoolean', () => {
  it.each([
    ['yes', true],
    ['Yes.', true],
    ['ja', true],
    ['oui', true],
    ['true', true],
    ['☑', true],
    ['☒ approved', true],
    ['[x]', true],
    ['[ X ]', true],
    ['no', false],
    ['Nein', false],
    ['non', false],
    ['nee', false],
    ['false', false],
    ['☐', false],
    ['[ ]', false],
  ])('%s → %s', (raw, v) => {
    expect(parseBoolean(raw)).toBe(v);
  });
  it('is undefined for other text', () => {
    expect(parseBoolean('maybe')).toBeUndefined();
    expect(parseBoolean('')).toBeUndefined();
  });
});
