import { readFile } from 'node:fs/promises';
import { Docket } from '../docket.js';
import type { Job } from '../types.js';
import { verifyWebhook } from '../webhooks.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { ProgressBar } from './progress.js';

export interface Flags {
  template?: string;
  schema?: string;
  'webhook-url'?: string;
  wait?: boolean;
  json?: boolean;
  markdown?: boolean;
  timeout?: string;
  search?: string;
  page?: string;
  secret?: string;
  id?: string;
  timestamp?: string;
  signature?: string;
  body?: string;
}

export interface Io {
  out: (text: string) => void;
  stdin: () => Promise<string>;
}

const jobExit = (jobs: Job[]) => (jobs.every((j) => j.status === 'success') ? ExitCode.ok : ExitCode.jobFailed);

async function schemaOf(flags: Flags) {
  if (!flags.schema) return undefined;
  try {
    return JSON.parse(await readFile(flags.schema, 'utf8'));
  } catch (err) {
    throw new UsageError(`--schema ${flags.schema}: ${(err as Error).message}`);
  }
}

function timeoutMs(flags: Flags): number {
  const seconds = flags.timeout === undefined ? 600 : Number(flags.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--timeout must be a positive number of seconds');
  return seconds * 1000;
}

function summary(job: Job): string {
  const lines = [`${job.job_id} ${job.status}${job.error ? `: ${job.error}` : ''}`];
  for (const [k, v] of Object.entries(job.result ?? {})) lines.push(`  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return lines.join('\n');
}

export async function extract(docket: Docket, args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1)
    throw new UsageError('usage: docket extract <file> [--template tpl_…|--schema schema.json] [--wait] [--json|--markdown]');
  if (flags.json && flags.markdown) throw new UsageError('--json and --markdown exclude each other');
  const outcome = await docket.extractFile(args[0], {
    templateId: flags.template,
    extractionSchema: await schemaOf(flags),
    webhookUrl: flags['webhook-url'],
    wait: Boolean(flags.wait),
    poll: { timeoutMs: timeoutMs(flags) },
  });
  const { job } = outcome;
  if (!flags.wait) {
    io.out(flags.json ? JSON.stringify(outcome, null, 2) : `${outcome.job_id} ${job.status} (artifact ${outcome.artifact_id})`);
    return ExitCode.ok;
  }
  if (flags.markdown && job.status === 'success') io.out(await docket.download(outcome.artifact_id, 'md'));
  else if (flags.json || flags.markdown) io.out(JSON.stringify(job, null, 2));
  else io.out(summary(job));
  return jobExit([job]);
}

export async function batch(docket: Docket, args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length === 0) throw new UsageError('usage: docket batch <files…> [--template tpl_…|--schema schema.json] [--json]');
  const bar = new ProgressBar();
  const outcome = await docket.extractBatch(args, {
    templateId: flags.template,
    extractionSchema: await schemaOf(flags),
    poll: { timeoutMs: timeoutMs(flags) },
    onProgress: (p) => bar.update(p.phase, p.done, p.total, p.job ? `${p.filename} ${p.job.status}` : p.filename),
  });
  bar.end();
  const jobs = outcome.files.map((f) => f.job!);
  if (flags.json) io.out(JSON.stringify(outcome, null, 2));
  else io.out(outcome.files.map((f) => `${f.filename}\t${summary(f.job!)}`).join('\n'));
  return jobExit(jobs);
}

export async function jobs(docket: Docket, args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length > 1) throw new UsageError('usage: docket jobs [job_id] [--page N] [--json]');
  if (args.length === 1) {
    const job = await docket.getJob(args[0]);
    io.out(flags.json ? JSON.stringify(job, null, 2) : summary(job));
    return ExitCode.ok;
  }
  const page = await docket.listArtifacts(Number(flags.page ?? 1), 20);
  if (flags.json) io.out(JSON.stringify(page, null, 2));
  else io.out(page.items.map((a) => `${a.id}\t${a.status}\t${a.uploaded_at ?? '-'}\t${a.filename}`).join('\n') || 'no documents yet');
  return ExitCode.ok;
}

export async function templates(docket: Docket, args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length) throw new UsageError('usage: docket templates [--search text] [--json]');
  const list = await docket.listTemplates(flags.search ? { search: flags.search } : {});
  if (flags.json) io.out(JSON.stringify(list, null, 2));
  else io.out(list.map((t) => `${t.id}\t${t.category}\tv${t.version}\t${t.name}`).join('\n') || 'no templates');
  return ExitCode.ok;
}

/** `docket webhooks verify`: checks a saved delivery offline (no credentials needed). */
export async function webhooksVerify(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args[0] !== 'verify' || args.length !== 1) {
    throw new UsageError(
      'usage: docket webhooks verify --secret whsec_… --id <webhook-id> --timestamp <webhook-timestamp> --signature <webhook-signature> [--body file]',
    );
  }
  const secret = flags.secret ?? process.env.DOCKET_WEBHOOK_SECRET;
  if (!secret || !flags.id || !flags.timestamp || !flags.signature) {
    throw new UsageError('webhooks verify needs --secret (or DOCKET_WEBHOOK_SECRET), --id, --timestamp and --signature');
  }
  const body = flags.body && flags.body !== '-' ? await readFile(flags.body, 'utf8') : await io.stdin();
  const headers = { 'webhook-id': flags.id, 'webhook-timestamp': flags.timestamp, 'webhook-signature': flags.signature };
  const event = verifyWebhook(headers, body, secret.split(','));
  io.out(flags.json ? JSON.stringify(event, null, 2) : `valid: ${event.type} for ${event.data.job_id} (${event.data.status})`);
  return ExitCode.ok;
}
