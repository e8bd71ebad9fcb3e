import { describe, expect, it } from '@jest/globals';
import { parseAdminArgs } from './admin.args.js';

const KEY = 'dk_live_' + 'x'.repeat(24);

describe('parseAdminArgs', () => {
  it('parses every command', () => {
    expect(parseAdminArgs([])).toEqual({ command: 'help' });
    expect(parseAdminArgs(['help'])).toEqual({ command: 'help' });
    expect(parseAdminArgs(['create-account', '--name', 'Acme', '--credits', '100'])).toEqual({
      command: 'create-account',
      name: 'Acme',
      credits: 100,
    });
    expect(parseAdminArgs(['create-account', '--name=Acme'])).toEqual({ command: 'create-account', name: 'Acme', credits: 0 });
    expect(parseAdminArgs(['deposit', '--account', 'acct_01abc', '--credits', '2.5'])).toEqual({
      command: 'deposit',
      accountId: 'acct_01abc',
      credits: 2.5,
    });
    expect(parseAdminArgs(['freeze', '--account', 'acct_01abc'])).toEqual({
      command: 'freeze',
      accountId: 'acct_01abc',
      reason: 'manual_freeze',
    });
    expect(parseAdminArgs(['freeze', '--account', 'acct_01abc', '--reason', 'payment_failed'])).toMatchObject({ reason: 'payment_failed' });
    expect(parseAdminArgs(['unfreeze', '--account', 'acct_01abc'])).toEqual({ command: 'unfreeze', accountId: 'acct_01abc' });
    expect(parseAdminArgs(['rotate-secret', '--api-key', KEY])).toEqual({ command: 'rotate-secret', apiKey: KEY });
    expect(parseAdminArgs(['revoke-secret', '--api-key', KEY, '--secret-id', 'sec_1'])).toEqual({
      command: 'revoke-secret',
      apiKey: KEY,
      secretId: 'sec_1',
    });
    expect(parseAdminArgs(['revoke-key', '--api-key', KEY])).toEqual({ command: 'revoke-key', apiKey: KEY });
    expect(parseAdminArgs(['list-secrets', '--api-key', KEY])).toEqual({ command: 'list-secrets', apiKey: KEY });
    expect(parseAdminArgs(['set-defaults', '--api-key', KEY, '--template-id', 'tpl_1', '--webhook-id', 'wh_1'])).toEqual({
      command: 'set-defaults',
      apiKey: KEY,
      templateId: 'tpl_1',
      webhookId: 'wh_1',
    });
    expect(parseAdminArgs(['set-defaults', '--api-key', KEY, '--template-id', 'auto'])).toEqual({
      command: 'set-defaults',
      apiKey: KEY,
      templateId: 'auto',
    });
    expect(parseAdminArgs(['set-defaults', '--api-key', KEY, '--webhook-id', 'none'])).toEqual({
      command: 'set-defaults',
      apiKey: KEY,
      webhookId: null,
    });
    expect(parseAdminArgs(['set-rate-limit', '--api-key', KEY, '--per-minute', '1200'])).toEqual({
      command: 'set-rate-limit',
      apiKey: KEY,
      perMinute: 1200,
    });
    expect(parseAdminArgs(['set-rate-limit', '--api-key', KEY, '--per-minute', 'default'])).toEqual({
      command: 'set-rate-limit',
      apiKey: KEY,
      perMinute: null,
    });
  });

  it.each([
    [['nope']],
    [['create-account']],
    [['create-account', '--name', '  ']],
    [['create-account', '--name', 'A', '--credits', '-1']],
    [['create-account', '--name', 'A', '--credits', 'ten']],
    [['create-account', '--name', 'A', '--bogus', 'x']],
    [['deposit', '--account', 'acct_01abc']],
    [['deposit', '--account', 'acct_01abc', '--credits', '0']],
    [['deposit', '--account', 'bob', '--credits', '1']],
    [['revoke-secret', '--api-key', KEY]],
    [['rotate-secret', KEY]],
    [['set-rate-limit', '--api-key', KEY]],
    [['list-secrets']],
    [['set-defaults', '--api-key', KEY]],
    [['set-defaults', '--template-id', 'tpl_1']],
    [['set-defaults', '--api-key', KEY, '--template-id', 'tpl 1']],
    [['set-rate-limit', '--api-key', KEY, '--per-minute', '0']],
    [['set-rate-limit', '--api-key', KEY, '--per-minute', '1.5']],
    [['set-rate-limit', '--api-key', KEY, '--per-minute', '-3']],
    [['set-rate-limit', '--api-key', KEY, '--per-minute', 'lots']],
  ])('rejects %j with validation_failed', (argv) => {
    expect(() => parseAdminArgs(argv)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
