import { describe, expect, it } from '@jest/globals';
import type { TemplateStatus } from '@docket/contracts';
import { assertTransition } from './template-command.service.js';
import { escapeLike } from './template-query.service.js';
import { DEFAULT_SETTINGS, mergeSettings } from './template.defaults.js';

describe('status transitions (spec §3.3)', () => {
  const ok: [TemplateStatus, TemplateStatus][] = [
    ['draft', 'active'],
    ['active', 'archived'],
    ['archived', 'active'],
    ['active', 'active'],
  ];
  const bad: [TemplateStatus, TemplateStatus][] = [
    ['active', 'draft'],
    ['draft', 'archived'],
    ['archived', 'draft'],
  ];

  it.each(ok)('%s → %s is allowed', (from, to) => {
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(bad)('%s → %s is a 400', (from, to) => {
    expect(() => assertTransition(from, to)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('mergeSettings', () => {
  it('overrides only the given keys', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, { confidence_threshold: 0.9, auto_save: undefined })).toEqual({
      auto_save: false,
      confidence_threshold: 0.9,
      ocr_engine: 'default',
      default_currency: null,
      partial_pages: false,
    });
    expect(mergeSettings(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('escapeLike', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
