import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { MAX_ACCOUNT_PATTERN_BYTES, MAX_ARTIFACT_BYTES, MAX_JSON_DEPTH, SUPPORTED_ARTIFACT_TYPES } from '@docket/contracts';

/** Input limits a client must know before submitting (docs/adr, input limits). */
const LIMITS = [
  '## Limits',
  '',
  `- Files: at most ${MAX_ARTIFACT_BYTES} bytes (50 MiB); \`artifact_size\` above it is refused at submit with 400 \`file_too_large\`.`,
  `- \`artifact_type\` must be one the engine reads (case-insensitive), else 400 \`unsupported_artifact_type\`: ${SUPPORTED_ARTIFACT_TYPES.join(', ')}.`,
  '- A missing or null required field is 400 `validation_failed`; a present field of the wrong type or out of range is 422 `invalid_body` / `invalid_query`.',
  `- JSON bodies: an object (any other JSON value is 422 \`invalid_body\`), at most 1 MiB (413 \`payload_too_large\`) and ${MAX_JSON_DEPTH} levels deep (422); an empty body with \`Content-Type: application/json\` counts as no body.`,
  `- \`validation.regex\`: RE2 syntax (no backreferences or lookaround: 400 \`invalid_regex\`); the distinct patterns of one template or schema may need at most ${MAX_ACCOUNT_PATTERN_BYTES / 1024 / 1024} MiB compiled (about 8 KiB + 160 bytes per RE2 instruction), else 400 \`patterns_too_large\`.`,
  '- Strings must not contain NUL (U+0000); PATCH/PUT fields are left out to stay unchanged, `null` is 422.',
  '- Direct upload (`POST /artifacts/upload`): at most `DIRECT_UPLOAD_MAX_BYTES` (default 25 MiB), 413 beyond.',
  '',
];

/** The typed SDK, the `docket` CLI and the MCP server (libs/sdk), for agents that can run a tool rather than HTTP. */
const CLIENTS = [
  '## Clients',
  '',
  '- MCP server `docket-mcp` (package `@docket/sdk`, stdio; env DOCKET_API, DOCKET_API_KEY, DOCKET_SECRET): tools `extract_document` (a file `path` or `url`, optional `template_id` or `extraction_schema`; waits for the result), `get_job`, `list_templates`, `create_template`, `get_wallet`.',
  '- CLI `docket extract <file> --wait [--json|--markdown]`, `docket batch <files…>`, `docket jobs`, `docket templates`, `docket webhooks verify`; exit 0 success, 1 job failed, 2 usage, 3 auth, 4 refused, 5 unavailable, 6 timed out, 7 invalid signature.',
  '- TypeScript SDK `@docket/sdk`: `extractFile`, `extractBatch`, `verifyWebhook` (Standard Webhooks), typed errors with the envelope `code`; generated from /docs-json.',
  '',
];

/**
 * `GET /llms.txt`: the endpoint catalogue in the llms.txt convention (Markdown: title, summary,
 * sections of links), generated from the same OpenAPI document Swagger UI shows, so it never drifts.
 */
@Injectable()
export class LlmsTxtService {
  private document?: OpenAPIObject;
  private cached?: string;

  setDocument(doc: OpenAPIObject): void {
    this.document = doc;
    this.cached = undefined;
  }

  render(): string {
    if (this.cached) return this.cached;
    const doc = this.document;
    const lines = [
      '# Docket API',
      '',
      '> Document extraction: upload files, get JSON shaped by a template or inline schema. Base URL includes /api/v1. HTTP Basic auth (api_key:secret) except status, health and version.',
      '',
    ];
    if (!doc) return lines.join('\n');
    const byTag = new Map<string, string[]>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, { summary?: string; tags?: string[] }>)) {
        if (!op || typeof op !== 'object' || !('responses' in op)) continue;
        const tag = op.tags?.[0] ?? 'Other';
        const list = byTag.get(tag) ?? [];
        list.push(`- [${method.toUpperCase()} ${path}](/docs#/${encodeURIComponent(tag)}): ${op.summary ?? ''}`.trimEnd());
        byTag.set(tag, list);
      }
    }
    for (const [tag, entries] of byTag) lines.push(`## ${tag}`, '', ...entries, '');
    lines.push(...LIMITS, ...CLIENTS);
    lines.push('## Optional', '', '- [OpenAPI JSON](/docs-json): full schema of every request and response', '');
    this.cached = lines.join('\n');
    return this.cached;
  }
}
