import { describe, expect, it } from '@jest/globals';
import { SizedLruCache } from './pattern-cache.js';

/** A cache of 100 bytes in total, 40 per owner; every entry below costs 10. */
function cache() {
  const created: string[] = [];
  const c = new SizedLruCache<string>({ maxBytes: 100, maxBytesPerOwner: 40 });
  const get = (owner: string, key: string) =>
    c.getOrCreate(owner, key, () => (created.push(`${owner}/${key}`), { value: key.toUpperCase(), bytes: 10 }));
  return { c, get, created };
}

describe('SizedLruCache', () => {
  it('creates a value once per (owner, key) and answers later calls from the cache', () => {
    const { get, created } = cache();
    expect(get('a', 'x')).toBe('X');
    expect(get('a', 'x')).toBe('X');
    expect(get('b', 'x')).toBe('X');
    expect(created).toEqual(['a/x', 'b/x']);
  });

  it("an owner over its share evicts its own least recently used entries, never another owner's", () => {
    const { c, get, created } = cache();
    get('other', 'kept');
    for (const k of ['1', '2', '3', '4']) get('a', k);
    get('a', '1'); // used again: '2' is now a's oldest
    get('a', '5');
    expect(c.bytes('a')).toBe(40);
    expect(c.bytes('other')).toBe(10);
    created.length = 0;
    get('a', '1');
    get('other', 'kept');
    expect(created).toEqual([]);
    get('a', '2');
    expect(created).toEqual(['a/2']);
  });

  it('the process bound evicts the oldest entries overall', () => {
    const { c, get } = cache();
    for (let owner = 0; owner < 12; owner++) get(`o${owner}`, 'k');
    expect(c.bytes()).toBe(100);
    expect(c.size).toBe(10);
    expect(c.bytes('o0')).toBe(0);
    expect(c.bytes('o11')).toBe(10);
  });
});
