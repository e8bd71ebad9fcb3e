import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { basename } from 'node:path';
import { z } from 'zod';
import { SDK_VERSION, type DocketClientOptions } from '../client.js';
import { Docket } from '../docket.js';
import { DocketApiError, DocketError } from '../errors.js';
import { MAX_FILE_BYTES, typeFromFilename, type ArtifactType } from '../files.js';
import type { CreateTemplate, ExtractionSchema } from '../types.js';

const DATA_TYPES = ['string', 'number', 'date', 'currency', 'table', 'boolean'] as const;
const field = z
  .object({
    key: z.string().describe('snake_case key of the value in the result'),
    label: z.string().optional().describe('The label printed on the document, e.g. "Invoice Number"'),
    data_type: z.enum(DATA_TYPES),
    required: z.boolean().optional(),
    description: z.string().optional(),
    validation: z.record(z.string(), z.unknown()).optional().describe('regex, min_value, max_value, allowed_values'),
    fields: z.array(z.record(z.string(), z.unknown())).optional().describe('Columns of a `table` field'),
  })
  .passthrough();
const schema = z.object({ fields: z.array(field).min(1) });

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

function ok(value: unknown): ToolResult {
  const structured =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { items: value };
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: structured };
}

/** Tool errors are results (the model reads them), carrying the API's error code. */
async function guarded(fn: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return ok(await fn());
  } catch (err) {
    const text = err instanceof DocketApiError ? `${err.code} (HTTP ${err.status}): ${err.message}` : (err as Error).message;
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/** Reads an http(s) URL into bytes (at most the engine's 50 MiB). */
async function download(url: string): Promise<{ bytes: Uint8Array; filename: string; contentType?: ArtifactType }> {
  const parsed = new URL(url);
  if (!['http:', 'https:'].includes(parsed.protocol)) throw new DocketError('url must be http or https');
  const res = await fetch(parsed, { redirect: 'follow' });
  if (!res.ok) throw new DocketError(`GET ${url}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_FILE_BYTES) throw new DocketError(`${url} is larger than ${MAX_FILE_BYTES} bytes`);
  const filename = basename(decodeURIComponent(parsed.pathname)).replace(/[^A-Za-z0-9._-]/g, '') || 'document';
  const header = res.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  const contentType = typeFromFilename(filename) ?? (header as ArtifactType | undefined);
  return { bytes, filename, contentType };
}

/** The MCP server: the API's main operations as tools, on the SDK. */
export function createMcpServer(docket: Docket): McpServer {
  const server = new McpServer({ name: 'docket', version: SDK_VERSION });
  server.registerTool(
    'extract_document',
    {
      title: 'Extract structured data from a document',
      description:
        'Uploads a PDF, image or text file (a local `path` or an http(s) `url`) to Docket and, by default, waits for the result. ' +
        'Without template_id or extraction_schema the account default (`auto`) classifies the document and extracts its standard fields. ' +
        'Returns the job: status (`success`, `failed`, …), result (keyed by field key), error, confidence.',
      inputSchema: {
        path: z.string().optional().describe('Local file path (exclusive with url)'),
        url: z.string().optional().describe('http(s) URL of the file (exclusive with path)'),
        template_id: z.string().optional().describe('A saved template, tpl_… (see list_templates)'),
        extraction_schema: schema.optional().describe('Inline schema { fields: [...] }, exclusive with template_id'),
        wait: z.boolean().optional().describe('Wait for the result (default true); false returns the queued job'),
        timeout_seconds: z.number().positive().optional().describe('How long to wait (default 300)'),
      },
    },
    (args) =>
      guarded(async () => {
        if (Boolean(args.path) === Boolean(args.url)) throw new DocketError('give exactly one of path or url');
        const source = args.url ? await download(args.url) : undefined;
        const outcome = await docket.extractFile(source ? source.bytes : args.path!, {
          filename: source?.filename,
          contentType: source?.contentType,
          templateId: args.template_id,
          extractionSchema: args.extraction_schema as ExtractionSchema | undefined,
          wait: args.wait ?? true,
          poll: { timeoutMs: (args.timeout_seconds ?? 300) * 1000 },
        });
        return outcome.job;
      }),
  );
  server.registerTool(
    'get_job',
    {
      title: 'Get a job',
      description: 'The job of GET /job/{job_id}: status, result, error, confidence.',
      inputSchema: { job_id: z.string() },
    },
    (args) => guarded(() => docket.getJob(args.job_id)),
  );
  server.registerTool(
    'list_templates',
    {
      title: 'List templates',
      description: "The account's templates (id, name, category, fields); use an id as extract_document's template_id.",
      inputSchema: {
        search: z.string().optional().describe('Case-insensitive prefix of name or description'),
        category: z.enum(['invoice', 'receipt', 'id_card', 'contract', 'custom']).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      },
    },
    (args) => guarded(() => docket.listTemplates(args)),
  );
  server.registerTool(
    'create_template',
    {
      title: 'Create a template',
      description: 'Saves a reusable template: a name (3+ characters), a category and the fields to extract.',
      inputSchema: {
        name: z.string().min(3),
        description: z.string().optional(),
        category: z.enum(['invoice', 'receipt', 'id_card', 'contract', 'custom']).optional(),
        fields: z.array(field).min(1),
      },
    },
    (args) => guarded(() => docket.createTemplate(args as unknown as CreateTemplate)),
  );
  server.registerTool(
    'get_wallet',
    { title: 'Get the wallet', description: 'Credits: balance, spendable (balance minus holds of running jobs), frozen state.' },
    () => guarded(() => docket.getWallet()),
  );
  return server;
}

/** Serves the tools over stdio until stdin closes. */
export async function serveStdio(options: DocketClientOptions): Promise<McpServer> {
  const server = createMcpServer(new Docket(options));
  await server.connect(new StdioServerTransport());
  return server;
}
