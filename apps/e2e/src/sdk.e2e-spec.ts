import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  Docket,
  DocketAuthError,
  DocketNotFoundError,
  DocketValidationError,
  verifyWebhook,
  WebhookWaiter,
  type BatchProgress,
  type ExtractionSchema,
} from '@docket/sdk';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const SDK = join(ROOT, 'libs', 'sdk');
const CLI = join(SDK, 'dist', 'cli', 'main.js');
const MCP = join(SDK, 'dist', 'mcp', 'main.js');
const exec = promisify(execFile);

const SCHEMA: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'vendor', label: 'Vendor', data_type: 'string' },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ],
};
type Invoice = { invoice_number: string; vendor: string; total: { value: number; currency: string | null } };
const lines = (n: number) => [`Vendor: Quillfeather Supplies`, `Invoice Number: INV-${n}`, 'Invoice Date: 2026-02-03', `Total: $${n}.25`];

jest.setTimeout(180_000);

describe('@docket/sdk, the docket CLI and the MCP server against the started stack', () => {
  // The README examples listen for their webhooks on WEBHOOK_PORT: the stack's port for a file's own listener.
  const suite = useE2eStack('SDK');
  const { settledWallet } = apiHelpers(suite);
  let docket: Docket;
  let dir: string;
  let creds: Record<string, string>;
  const after: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const f of after) await f();
  });

  beforeAll(async () => {
    const { stack, acct } = suite;
    docket = new Docket({ baseUrl: stack.api, apiKey: acct.live.api_key, secret: acct.live.secret });
    creds = { DOCKET_API: stack.api, DOCKET_API_KEY: acct.live.api_key, DOCKET_SECRET: acct.live.secret };
    // A working directory like a user's: two invented documents, and @docket/sdk resolvable as an installed package.
    dir = mkdtempSync(join(tmpdir(), 'docket-sdk-e2e-'));
    writeFileSync(join(dir, 'invoice.pdf'), await invoicePdf(lines(2001)));
    writeFileSync(join(dir, 'receipt.pdf'), await invoicePdf(lines(2002)));
    writeFileSync(join(dir, 'schema.json'), JSON.stringify(SCHEMA));
    mkdirSync(join(dir, 'node_modules', '@docket'), { recursive: true });
    symlinkSync(SDK, join(dir, 'node_modules', '@docket', 'sdk'), 'dir');
  });

  it('the gateway serves exactly the OpenAPI document the SDK was generated from', async () => {
    const served = await (await fetch(`${suite.stack.api.replace(/\/api\/v1$/, '')}/docs-json`)).json();
    expect(served).toEqual(JSON.parse(readFileSync(join(SDK, 'openapi.json'), 'utf8')));
    const llms = await (await fetch(`${suite.stack.api}/llms.txt`)).text();
    expect(llms).toContain('## Clients');
    expect(llms).toContain('`extract_document`');
  });

  it('main flow through the SDK: extractFile → typed result, settlement, and a webhook verifyWebhook accepts', async () => {
    const pdf = readFileSync(join(dir, 'invoice.pdf'));
    const outcome = await docket.extractFile<Invoice>(pdf, {
      filename: 'invoice.pdf',
      extractionSchema: SCHEMA,
      webhookUrl: suite.stack.receiverUrl,
      throwOnFailure: true,
      poll: { intervalMs: 200 },
    });
    expect(outcome.job).toMatchObject({ job_id: outcome.job_id, artifact_id: outcome.artifact_id, status: 'success' });
    expect(outcome.job.result).toEqual({
      invoice_number: 'INV-2001',
      vendor: 'Quillfeather Supplies',
      total: { value: 2001.25, currency: 'USD' },
    });
    expect((await settledWallet()).balance).toBe(99);

    const delivery = await expectDelivery(outcome.job_id);
    const event = verifyWebhook<Invoice>(delivery.headers, delivery.body, outcome.webhook_signing_secret!);
    expect(event).toMatchObject({ type: 'extraction.completed', data: { job_id: outcome.job_id, status: 'success' } });
    expect(event.data.result?.invoice_number).toBe('INV-2001');
    expect(() => verifyWebhook(delivery.headers, delivery.body.replace('INV-2001', 'INV-9999'), outcome.webhook_signing_secret!)).toThrow();
  });

  async function expectDelivery(jobId: string) {
    for (let i = 0; i < 300; i++) {
      const d = suite.stack.deliveries.find((x) => String(x.headers['webhook-id']).startsWith(jobId));
      if (d) return d;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no webhook delivery for ${jobId}`);
  }

  it('resolves extractFile from the signed delivery with a WebhookWaiter', async () => {
    const waiter = new WebhookWaiter();
    const handled = new Set<object>();
    const verified: string[] = [];
    // Hands every delivery the receiver got to the waiter, as a user's webhook endpoint would; earlier jobs'
    // deliveries are signed with secrets this waiter never saw and are refused.
    const pump = setInterval(() => {
      for (const d of suite.stack.deliveries.filter((x) => !handled.has(x))) {
        handled.add(d);
        try {
          verified.push(waiter.handle(d.headers, d.body).data.job_id);
        } catch {
          // not ours
        }
      }
    }, 50);
    try {
      const outcome = await docket.extractFile(join(dir, 'invoice.pdf'), {
        extractionSchema: SCHEMA,
        webhookUrl: suite.stack.receiverUrl,
        webhookWaiter: waiter,
        poll: { timeoutMs: 120_000 },
      });
      expect(outcome.job.status).toBe('success');
      expect(verified).toEqual([outcome.job_id]);
    } finally {
      clearInterval(pump);
    }
  });

  it('extractBatch: every file uploaded, confirmed and finished, with progress', async () => {
    const progress: BatchProgress[] = [];
    const outcome = await docket.extractBatch<Invoice>(
      [join(dir, 'invoice.pdf'), { file: readFileSync(join(dir, 'receipt.pdf')), filename: 'receipt.pdf' }],
      {
        extractionSchema: SCHEMA,
        onProgress: (p) => progress.push(p),
        poll: { intervalMs: 200 },
      },
    );
    expect(outcome.batch_ids).toHaveLength(1);
    expect(outcome.files.map((f) => [f.filename, f.job?.status, f.job?.result?.invoice_number])).toEqual([
      ['invoice.pdf', 'success', 'INV-2001'],
      ['receipt.pdf', 'success', 'INV-2002'],
    ]);
    expect(progress.map((p) => `${p.phase} ${p.done}/${p.total}`).sort()).toEqual([
      'finished 1/2',
      'finished 2/2',
      'uploaded 1/2',
      'uploaded 2/2',
    ]);
  });

  it("throws typed errors carrying the envelope's code", async () => {
    await expect(docket.getJob('job_01JD3Q8Y4N6Z2XK7M5T9W0ABCD')).rejects.toBeInstanceOf(DocketNotFoundError);
    const both = await docket
      .extractFile(join(dir, 'invoice.pdf'), { templateId: 'tpl_x', extractionSchema: SCHEMA })
      .catch((e: DocketValidationError) => e);
    expect(both).toBeInstanceOf(DocketValidationError);
    expect(both).toMatchObject({ status: 400, code: 'template_and_schema_both_set', requestId: expect.any(String) });
    const stranger = new Docket({ baseUrl: suite.stack.api, apiKey: suite.acct.live.api_key, secret: 'sk_wrong' });
    await expect(stranger.getWallet()).rejects.toMatchObject({ name: 'DocketAuthError', status: 401, code: 'unauthorized' });
    expect(DocketAuthError).toBeDefined();
  });

  it('runs every js example of libs/sdk/README.md and the root README as written', async () => {
    const blocks = (file: string) => [...readFileSync(file, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    const examples = [...blocks(join(SDK, 'README.md')), ...blocks(join(ROOT, 'README.md'))];
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const code of examples) {
      const file = join(dir, `example-${examples.indexOf(code)}.mjs`);
      writeFileSync(file, code);
      const { stdout } = await exec(process.execPath, [file], {
        cwd: dir,
        env: { ...process.env, ...creds, WEBHOOK_PORT: String(suite.stack.listenerPort) },
      });
      for (const [, wanted] of code.matchAll(/\/\/ prints: (.+)$/gm)) expect(stdout).toContain(wanted.trim());
    }
  });

  describe('docket CLI (the built bin, as a process)', () => {
    const cli = (args: string[], env: Record<string, string> = creds) =>
      exec(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, ...env } }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );

    it('docket extract <pdf> --wait prints the finished job and exits 0', async () => {
      const json = await cli(['extract', 'invoice.pdf', '--schema', 'schema.json', '--wait', '--json']);
      expect(json.code).toBe(0);
      const job = JSON.parse(json.stdout);
      expect(job).toMatchObject({ status: 'success', result: { invoice_number: 'INV-2001' } });

      const human = await cli(['extract', 'invoice.pdf', '--schema', 'schema.json', '--wait']);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^job_\S+ success\n/);
      expect(human.stdout).toContain('\n  invoice_number: INV-2001\n');

      const listed = await cli(['jobs', job.job_id, '--json']);
      expect(JSON.parse(listed.stdout).job_id).toBe(job.job_id);
      expect((await cli(['jobs'])).stdout).toContain('invoice.pdf');
      expect((await cli(['templates', '--json'])).code).toBe(0);
      expect((await cli(['wallet'])).stdout).toMatch(/^balance \d+, spendable \d+/);
    });

    it('docket batch shows progress; --markdown prints the result; webhooks verify accepts a real delivery', async () => {
      const batch = await cli(['batch', 'invoice.pdf', 'receipt.pdf', '--schema', 'schema.json', '--json']);
      expect(batch.code).toBe(0);
      expect(JSON.parse(batch.stdout).files.map((f: { job: { status: string } }) => f.job.status)).toEqual(['success', 'success']);
      expect(batch.stderr).toContain('] 2/2 finished');

      const md = await cli(['extract', 'receipt.pdf', '--schema', 'schema.json', '--wait', '--markdown']);
      expect(md.code).toBe(0);
      expect(md.stdout).toContain('INV-2002');

      const sub = await cli(['extract', 'invoice.pdf', '--schema', 'schema.json', '--webhook-url', suite.stack.receiverUrl, '--json']);
      const { job_id, webhook_signing_secret } = JSON.parse(sub.stdout);
      const d = await expectDelivery(job_id);
      writeFileSync(join(dir, 'delivery.json'), d.body);
      const h = (k: string) => String(d.headers[k]);
      const args = [
        'webhooks',
        'verify',
        '--secret',
        webhook_signing_secret,
        '--id',
        h('webhook-id'),
        '--timestamp',
        h('webhook-timestamp'),
      ];
      const valid = await cli([...args, '--signature', h('webhook-signature'), '--body', 'delivery.json'], {});
      expect(valid).toMatchObject({ code: 0, stdout: `valid: extraction.completed for ${job_id} (success)\n` });
      expect((await cli([...args, '--signature', 'v1,Zm9yZ2Vk', '--body', 'delivery.json'], {})).code).toBe(7);
    });

    it('exits with the documented codes: 3 bad credentials, 4 refused, 2 usage, 1 job failed', async () => {
      const bad = await cli(['extract', 'invoice.pdf', '--wait'], { ...creds, DOCKET_SECRET: 'sk_wrong' });
      expect(bad.code).toBe(3);
      expect(bad.stderr).toMatch(/^docket: unauthorized \(HTTP 401\)/);
      const refused = await cli(['extract', 'invoice.pdf', '--template', 'tpl_nope', '--wait']);
      expect(refused.code).toBe(4);
      expect((await cli(['extract', 'missing.pdf'])).code).toBe(2);
      // Bytes the engine cannot read (sent as application/octet-stream): the job fails, the CLI prints it and exits 1.
      writeFileSync(join(dir, 'drawing.bin'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      const failed = await cli(['extract', 'drawing.bin', '--schema', 'schema.json', '--wait']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^job_\S+ failed: unsupported_type: /);
      expect((await cli(['extract'])).code).toBe(2);
    });
  });

  it('MCP server over stdio: lists its tools and runs extract_document (a path and a URL)', async () => {
    // The working directory over HTTP, for extract_document's `url`.
    const files = createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(join(dir, basename(req.url!)))),
    );
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    const fileServer = { url: `http://127.0.0.1:${(files.address() as AddressInfo).port}` };
    after.push(() => new Promise((r) => files.close(() => r())));
    const client = new Client({ name: 'docket-e2e', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP],
      env: { ...(process.env as Record<string, string>), ...creds },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const byUrl = await client.callTool({
        name: 'extract_document',
        arguments: { url: `${fileServer.url}/receipt.pdf`, extraction_schema: SCHEMA },
      });
      expect(byUrl.structuredContent).toMatchObject({ status: 'success', result: { invoice_number: 'INV-2002' } });
      expect(tools.map((t) => t.name).sort()).toEqual(['create_template', 'extract_document', 'get_job', 'get_wallet', 'list_templates']);
      const extracted = await client.callTool({
        name: 'extract_document',
        arguments: { path: join(dir, 'receipt.pdf'), extraction_schema: SCHEMA },
      });
      expect(extracted.isError).toBeFalsy();
      expect(extracted.structuredContent).toMatchObject({
        status: 'success',
        result: { invoice_number: 'INV-2002', vendor: 'Quillfeather Supplies' },
      });
      const jobId = (extracted.structuredContent as { job_id: string }).job_id;
      const got = await client.callTool({ name: 'get_job', arguments: { job_id: jobId } });
      expect(got.structuredContent).toMatchObject({ job_id: jobId, status: 'success' });
      const created = await client.callTool({
        name: 'create_template',
        arguments: { name: 'Supplier invoices', category: 'invoice', fields: SCHEMA.fields },
      });
      expect(created.structuredContent).toMatchObject({ name: 'Supplier invoices', id: expect.stringMatching(/^tpl_/) });
      const wallet = await client.callTool({ name: 'get_wallet', arguments: {} });
      expect(wallet.structuredContent).toMatchObject({ is_frozen: false });
      const missing = await client.callTool({ name: 'get_job', arguments: { job_id: 'job_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/not_found \(HTTP 404\)/);
    } finally {
      await client.close();
    }
  });
});
