import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { DocketError } from '@docket/errors';

export const MAX_WEBHOOK_URL_LENGTH = 2083;

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** True only for globally routable unicast addresses (ipaddr.js classification; v4-mapped v6 unwrapped). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** `host:port` with the scheme's default port filled in, lowercased, IPv6 without brackets. */
export function hostPortKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`;
}

/**
 * Spec §4.6: HTTPS only, at most 2083 characters, and the host must resolve only to public IPs.
 * `host:port` entries of WEBHOOK_ALLOWLIST may be plain HTTP and private (test receivers).
 * Delivery re-checks the resolved address at connect time (DNS rebinding), see HttpSender.
 */
export class UrlPolicy {
  constructor(
    private readonly allowlist: Set<string>,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  isAllowlisted(url: URL): boolean {
    return this.allowlist.has(hostPortKey(url)) || this.allowlist.has(`[${hostPortKey(url).replace(/:(\d+)$/, ']:$1')}`);
  }

  /** Returns the URL as given or throws 400 `invalid_webhook_url`. */
  async validate(raw: string): Promise<string> {
    if (typeof raw !== 'string' || raw.length === 0) throw invalid('URL is required');
    if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw invalid(`URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('URL is not valid');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('URL must use HTTPS');
    if (url.username || url.password) throw invalid('URL must not carry credentials');
    if (this.isAllowlisted(url)) return raw;
    if (url.protocol !== 'https:') throw invalid('URL must use HTTPS');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        throw invalid('URL host does not resolve');
      }
    }
    if (!addresses.length) throw invalid('URL host does not resolve');
    if (!addresses.every(isPublicAddress)) throw invalid('URL must resolve to a public IP address');
    return raw;
  }
}

function invalid(message: string): DocketError {
  return new DocketError('invalid_webhook_url', message);
}
