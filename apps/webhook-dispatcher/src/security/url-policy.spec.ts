import { describe, expect, it } from '@jest/globals';
import { isPublicAddress, UrlPolicy, type Resolver } from './url-policy.js';

const fakeDns: Resolver = async (host) => {
  const table: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    localhost: ['127.0.0.1', '::1'],
    'rebind.example.com': ['93.184.216.34', '10.1.2.3'],
    'metadata.example.com': ['169.254.169.254'],
  };
  if (!table[host]) throw new Error('ENOTFOUND');
  return table[host];
};

const policy = new UrlPolicy(new Set(['127.0.0.1:4555', 'receiver.internal:8080']), fakeDns);
const rejects = (url: string) => expect(policy.validate(url)).rejects.toMatchObject({ code: 'invalid_webhook_url' });

describe('webhook URL policy (spec §4.6)', () => {
  it('accepts HTTPS URLs resolving only to public addresses', async () => {
    await expect(policy.validate('https://hooks.example.com/docket')).resolves.toBe('https://hooks.example.com/docket');
    await expect(policy.validate('https://93.184.216.34/x')).resolves.toBeDefined();
  });

  it('rejects plain HTTP', () => rejects('http://hooks.example.com/docket'));

  it.each([
    'https://10.0.0.1/x',
    'https://127.0.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://localhost/x',
    'https://192.168.1.10/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://0.0.0.0/x',
    'https://metadata.example.com/x',
    'https://rebind.example.com/x',
    'https://does-not-resolve.example/x',
  ])('rejects non-public destination %s', (url) => rejects(url));

  it('rejects URLs over 2083 characters, garbage, other schemes and credentials', async () => {
    const base = 'https://hooks.example.com/';
    await expect(policy.validate(base + 'a'.repeat(2083 - base.length))).resolves.toBeDefined();
    await rejects(base + 'a'.repeat(2084 - base.length));
    await rejects('not a url');
    await rejects('ftp://hooks.example.com/x');
    await rejects('https://user:pass@hooks.example.com/x');
  });

  it('lets allowlisted host:port receivers use HTTP and private addresses, and nothing else', async () => {
    await expect(policy.validate('http://127.0.0.1:4555/hook')).resolves.toBe('http://127.0.0.1:4555/hook');
    await expect(policy.validate('http://receiver.internal:8080/hook')).resolves.toBeDefined();
    await rejects('http://127.0.0.1:4556/hook');
    await rejects('https://127.0.0.1/hook');
  });

  it('classifies addresses with ipaddr.js', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true);
    for (const a of [
      '10.0.0.1',
      '172.16.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '::1',
      'fc00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'nope',
    ]) {
      expect(isPublicAddress(a)).toBe(false);
    }
  });
});
