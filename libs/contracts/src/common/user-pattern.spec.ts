import { describe, expect, it } from '@jest/globals';
import { DocketError } from '@docket/errors';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ExtractionSchemaDto } from './field-def.dto.js';
import {
  assertPatternsWithinShare,
  compiledPatternBytes,
  compiledUserPattern,
  MAX_ACCOUNT_PATTERN_BYTES,
  schemaPatternBytes,
  userPatternProblem,
} from './user-pattern.js';

/** Distinct patterns of ~1000 instructions each (≈ 168 KB estimated): `count` of them, for field keys f0, f1, … */
function heavyFields(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => ({
    key: `f${from + i}`,
    data_type: 'string',
    validation: { regex: `^[a-z]{${1000 - from - i}}$` },
  }));
}

describe('tenant patterns', () => {
  it('run on RE2 semantics, with JavaScript escapes translated, and refuse what RE2 cannot run', () => {
    expect(compiledUserPattern('^INV-\\d+$').re!.test('INV-12')).toBe(true);
    expect(compiledUserPattern('^caf\\u00e9$').re!.test('café')).toBe(true);
    expect(userPatternProblem('(?=x)')).toEqual(expect.any(String));
    expect(userPatternProblem('^(a)\\1$')).toEqual(expect.any(String));
  });

  it('are compiled once per (owner, pattern) and charged to the owner', () => {
    const first = compiledUserPattern('^ACME-\\d{4}$', 'account-charged');
    expect(compiledUserPattern('^ACME-\\d{4}$', 'account-charged')).toBe(first);
    expect(compiledPatternBytes('account-charged')).toBe(first.bytes);
  });

  it("keep an account's compiled patterns within its share, however many it uses", () => {
    for (const f of heavyFields(120)) compiledUserPattern(f.validation.regex, 'account-busy');
    expect(compiledPatternBytes('account-busy')).toBeLessThanOrEqual(MAX_ACCOUNT_PATTERN_BYTES);
  });

  it('a schema whose distinct patterns exceed one account share is refused with patterns_too_large', () => {
    const fits = heavyFields(30);
    const tooMany = heavyFields(60);
    expect(schemaPatternBytes(fits)).toBeLessThanOrEqual(MAX_ACCOUNT_PATTERN_BYTES);
    expect(schemaPatternBytes(tooMany)).toBeGreaterThan(MAX_ACCOUNT_PATTERN_BYTES);
    // One pattern repeated is compiled (and counted) once.
    expect(schemaPatternBytes(Array.from({ length: 200 }, () => fits[0]))).toBe(schemaPatternBytes([fits[0]]));

    const errors = validateSync(plainToInstance(ExtractionSchemaDto, { fields: tooMany }));
    expect(errors.map((e) => [e.property, Object.keys(e.constraints ?? {}), e.contexts?.patternsWithinShare])).toEqual([
      ['fields', ['patternsWithinShare'], { code: 'patterns_too_large' }],
    ]);
    expect(validateSync(plainToInstance(ExtractionSchemaDto, { fields: fits }))).toEqual([]);
    expect(() => assertPatternsWithinShare(tooMany)).toThrow(DocketError);
    expect(() => assertPatternsWithinShare([...fits, ...heavyFields(30, 30)])).toThrow(
      expect.objectContaining({ code: 'patterns_too_large' }),
    );
  });
});
