import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { UrlPolicy } from '../security/url-policy.js';

export const MAX_STORED_RESPONSE_BYTES = 4096;

export interface SendResult {
  /** 0 on connection, DNS, SSRF-policy or time-out failure (spec §2.4). */
  status: number;
  body: string;
  durationMs: number;
}

/**
 * POSTs with SSRF protection at connect time: the filtering agents check the address each
 * connection actually resolves to (DNS rebinding), not only what validation saw. Allowlisted
 * `host:port` test receivers bypass the filter. Redirects are not followed.
 */
export class HttpSender {
  private readonly safeHttp = new RequestFilteringHttpAgent({ keepAlive: false });
  private readonly safeHttps = new RequestFilteringHttpsAgent({ keepAlive: false });
  private readonly plainHttp = new http.Agent({ keepAlive: false });
  private readonly plainHttps = new https.Agent({ keepAlive: false });

  constructor(
    private readonly urls: UrlPolicy,
    private readonly timeoutMs: number,
  ) {}

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { status: 0, body: 'invalid URL', durationMs: elapsed() };
    }
    const allowlisted = this.urls.isAllowlisted(url);
    // The allowlist may have changed since registration: plain HTTP is only ever sent to allowlisted receivers.
    if (url.protocol !== 'https:' && !(allowlisted && url.protocol === 'http:')) {
      return { status: 0, body: 'URL must use HTTPS', durationMs: elapsed() };
    }
    const isHttps = url.protocol === 'https:';
    const agent = allowlisted ? (isHttps ? this.plainHttps : this.plainHttp) : isHttps ? this.safeHttps : this.safeHttp;
    const lib = isHttps ? https : http;
    const payload = Buffer.from(body, 'utf8');

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let responseStatus = 0;
      const finish = (status: number, text: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status, body: text, durationMs: elapsed() });
      };
      const chunks: Buffer[] = [];
      const req = lib.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(payload.length) } }, (res) => {
        responseStatus = res.statusCode ?? 0;
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_STORED_RESPONSE_BYTES) chunks.push(c.subarray(0, MAX_STORED_RESPONSE_BYTES - size));
          size += c.length;
        });
        res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        res.on('error', (err) => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8') || err.message));
      });
      // One deadline for connect + send + response body.
      const timer = setTimeout(() => {
        finish(responseStatus, responseStatus ? Buffer.concat(chunks).toString('utf8') : `timed out after ${this.timeoutMs} ms`);
        req.destroy(new Error('timeout'));
      }, this.timeoutMs);
      req.on('error', (err) => finish(0, describeError(err)));
      req.end(payload);
    });
  }

  close(): void {
    for (const a of [this.safeHttp, this.safeHttps, this.plainHttp, this.plainHttps]) a.destroy();
  }
}

/** Connection failures are stored for the account to read: say what happened, not which internal address was hit. */
function describeError(err: Error): string {
  if (/is not allowed/.test(err.message)) return 'blocked: destination address is not public';
  return err.message.slice(0, MAX_STORED_RESPONSE_BYTES);
}
