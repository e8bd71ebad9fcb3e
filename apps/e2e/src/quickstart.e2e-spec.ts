import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { invoicePdf } from './invoice.test-helper.js';
import { useE2eStack } from './stack.test-helper.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'docs/quickstart.sh');
const run = promisify(execFile);

jest.setTimeout(180_000);

describe('README quick start: docs/quickstart.sh runs as written against the started stack', () => {
  const suite = useE2eStack('Quickstart');
  let file: string;

  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'docket-quickstart-')), 'invoice.pdf');
    // A whole invented invoice page: the `auto` template's kind scorer weighs a page's evidence (ADR 0010).
    const page = [
      'Brimwell Joinery Ltd',
      '4 Tollgate Row, Fenmarch',
      'INVOICE',
      'Invoice Number: INV-4001',
      'Invoice date: 2026-11-01',
      'Bill to: Orrin Castleby',
      'Due date: 2026-12-01',
      'Description Qty Unit price Amount',
      'Oak shelf 1 8.00 8.00',
      'Fitting 1 2.00 2.00',
      'Subtotal 10.00',
      'Total: $10.00',
    ];
    writeFileSync(file, await invoicePdf(page));
  });

  const quickstart = (env: Record<string, string> = {}) =>
    run('bash', [SCRIPT, file], {
      env: {
        ...process.env,
        AUTH: `${suite.acct.live.api_key}:${suite.acct.live.secret}`,
        DOCKET_API: suite.stack.api,
        POLL_SECONDS: '0.2',
        ...env,
      },
    });

  it('the README shows the script exactly as the file holds it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(SCRIPT, 'utf8').trimEnd());
  });

  it.each([
    ['jq when installed', {}],
    ['the Node fallback (NO_JQ=1)', { NO_JQ: '1' }],
  ])('submits, uploads, confirms and polls to success with %s', async (_how, env) => {
    const { stdout, stderr } = await quickstart(env);
    const job = JSON.parse(stdout);
    expect(job).toMatchObject({
      job_id: expect.stringMatching(/^job_/),
      status: 'success',
      result: { document_type: 'invoice', invoice_number: 'INV-4001' },
    });
    expect(stderr).toContain(job.job_id);
  });

  it('stops with the error envelope on a refused call (wrong credentials → 401, exit 1)', async () => {
    const failed = await quickstart({ AUTH: `${suite.acct.live.api_key}:sk_wrong` }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect(failed!.stderr).toContain('HTTP 401');
  });
});
