import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

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
    const lines = ['# Docket API', '', '> Document extraction: upload files, get JSON shaped by a template or inline schema. Base URL includes /api/v1. HTTP Basic auth (api_key:secret) except status, health and version.', ''];
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
    lines.push('## Optional', '', '- [OpenAPI JSON](/docs-json): full schema of every request and response', '');
    this.cached = lines.join('\n');
    return this.cached;
  }
}
