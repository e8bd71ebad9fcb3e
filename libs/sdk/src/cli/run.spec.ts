import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { DocketAuthError, DocketNotFoundError, DocketServerError, DocketTimeoutError, DocketUploadError } from '../errors.js';
import { resolveCredentials } from './config.js';
import { ExitCode, exitCodeFor, UsageError } from './exit-codes.js';
import { run } from './run.js';

function io(stdin = '') {
  const lines: string[] = [];
  return { lines, io: { out: (t: string) => lines.push(t), stdin: async () => stdin } };
}

describe('docket CLI', () => {
  it('prints help (0), and refuses no command or an unknown flag as usage errors (2)', async () => {
    const a = io();
    expect(await run(['--help'], {}, a.io)).toBe(0);
    expect(a.lines[0]).toMatch(/docket extract <file>/);
    expect(await run([], {}, io().io)).toBe(ExitCode.usage);
    await expect(run(['extract', 'x.pdf', '--colour'], {}, io().io)).rejects.toBeInstanceOf(UsageError);
    await expect(run(['frobnicate'], { DOCKET_API_KEY: 'k', DOCKET_SECRET: 's' }, io().io)).rejects.toThrow(/unknown command/);
  });

  it('maps every failure to its documented exit code', () => {
    const api = (Cls: typeof DocketAuthError, status: number) => new Cls(status, 'x', 'm', undefined, undefined);
    expect(exitCodeFor(new UsageError('u'))).toBe(2);
    expect(exitCodeFor(api(DocketAuthError, 401))).toBe(3);
    expect(exitCodeFor(api(DocketNotFoundError, 404))).toBe(4);
    expect(exitCodeFor(new DocketUploadError(403, 'SignatureDoesNotMatch'))).toBe(4);
    expect(exitCodeFor(api(DocketServerError, 503))).toBe(5);
    expect(exitCodeFor(new DocketTimeoutError('job_1', 'running', 1000))).toBe(6);
    expect(exitCodeFor(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(2);
  });

  it('takes credentials from flags, then the environment, then the config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-cli-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ api: 'http://file/api/v1', api_key: 'dk_file', secret: 'sk_file' }));
    expect(resolveCredentials({}, { DOCKET_CONFIG: file })).toEqual({
      baseUrl: 'http://file/api/v1',
      apiKey: 'dk_file',
      secret: 'sk_file',
    });
    expect(resolveCredentials({}, { DOCKET_CONFIG: file, DOCKET_API_KEY: 'dk_env', DOCKET_SECRET: 'sk_env' })).toMatchObject({
      apiKey: 'dk_env',
      secret: 'sk_env',
    });
    expect(resolveCredentials({ 'api-key': 'dk_flag', secret: 'sk_flag', config: file }, { DOCKET_API_KEY: 'dk_env' })).toMatchObject({
      apiKey: 'dk_flag',
    });
    expect(() => resolveCredentials({}, { XDG_CONFIG_HOME: dir })).toThrow(UsageError);
    expect(() => resolveCredentials({ config: join(dir, 'missing.json') }, {})).toThrow(/does not exist/);
  });

  it('webhooks verify: 0 with the event for a valid delivery read from stdin, 7 when forged', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const body = JSON.stringify({
      type: 'extraction.failed',
      timestamp: new Date().toISOString(),
      data: { job_id: 'job_9', status: 'failed' },
    });
    const now = new Date();
    const args = [
      'webhooks',
      'verify',
      '--secret',
      secret,
      '--id',
      'job_9:extraction.failed',
      '--timestamp',
      String(Math.floor(now.getTime() / 1000)),
    ];
    const sig = new Webhook(secret).sign('job_9:extraction.failed', now, body);
    const ok = io(body);
    expect(await run([...args, '--signature', sig], {}, ok.io)).toBe(0);
    expect(ok.lines[0]).toBe('valid: extraction.failed for job_9 (failed)');
    const forged = run([...args, '--signature', 'v1,AAAA'], {}, io(body).io).catch((e) => exitCodeFor(e));
    expect(await forged).toBe(ExitCode.invalidSignature);
  });
});
