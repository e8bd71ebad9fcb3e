import { describe, expect, it } from '@jest/globals';
import { DocketError } from '@docket/errors';
import { basicAuthHeader } from '../identity/credentials.js';
import { AdminToken } from './admin-token.js';

const TOKEN = 'unit-operator-token-abcdefghijklmnopqrstuvwxyz';
const codeOf = (token: AdminToken, header: string | string[] | undefined): string => {
  try {
    token.check(header);
    return 'ok';
  } catch (err) {
    return err instanceof DocketError ? err.code : 'other';
  }
};

describe('AdminToken', () => {
  it('answers 404 (not_found) for every request when admin mode is off', () => {
    const off = new AdminToken('');
    expect(off.enabled).toBe(false);
    expect(codeOf(off, `Bearer ${TOKEN}`)).toBe('not_found');
    expect(codeOf(new AdminToken(undefined), undefined)).toBe('not_found');
  });

  it('admits exactly the configured Bearer token (scheme case-insensitive)', () => {
    const on = new AdminToken(TOKEN);
    expect(codeOf(on, `Bearer ${TOKEN}`)).toBe('ok');
    expect(codeOf(on, `bearer ${TOKEN}`)).toBe('ok');
  });

  it('answers 401 without a Bearer token, an API key included, and for oversized or repeated headers', () => {
    const on = new AdminToken(TOKEN);
    for (const header of [
      undefined,
      '',
      'Bearer',
      basicAuthHeader('dk_live_abc', TOKEN),
      `Bearer ${'a'.repeat(2000)}`,
      [`Bearer ${TOKEN}`],
    ]) {
      expect(codeOf(on, header)).toBe('unauthorized');
    }
  });

  it('answers 403 for a wrong token, also one differing only in its last character or a prefix', () => {
    const on = new AdminToken(TOKEN);
    for (const wrong of [`${TOKEN.slice(0, -1)}X`, TOKEN.slice(0, 10), `${TOKEN}x`])
      expect(codeOf(on, `Bearer ${wrong}`)).toBe('forbidden');
  });

  it('keeps only a digest of the token', () => {
    expect(JSON.stringify(new AdminToken(TOKEN))).not.toContain(TOKEN);
  });
});
