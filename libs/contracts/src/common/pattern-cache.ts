/** One cached value and what it is charged: its owner and its estimated bytes. */
interface Entry<V> {
  owner: string;
  value: V;
  bytes: number;
}

/** Bounds of a `SizedLruCache`: the whole cache and each owner's share (estimated bytes). */
export interface CacheBudget {
  maxBytes: number;
  maxBytesPerOwner: number;
}

/**
 * Least-recently-used cache bounded by estimated bytes, in total and per owner (an account): one owner filling its
 * share evicts its own oldest entries, never another owner's; the total bound evicts the oldest entries overall.
 * Keys are (owner, key) pairs, so an owner's entries are charged to it alone.
 */
export class SizedLruCache<V> {
  /** Every entry, oldest first (a Map keeps insertion order; a hit re-inserts). */
  private readonly entries = new Map<string, Entry<V>>();
  /** Each owner's entry ids, oldest first, and their bytes. */
  private readonly owners = new Map<string, { ids: Set<string>; bytes: number }>();
  private totalBytes = 0;

  constructor(private readonly budget: CacheBudget) {}

  /** The cached value of (owner, key), computed and charged on a miss. */
  getOrCreate(owner: string, key: string, create: () => { value: V; bytes: number }): V {
    const id = `${owner}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit) {
      this.touch(id, hit);
      return hit.value;
    }
    const { value, bytes } = create();
    this.insert(id, { owner, value, bytes });
    return value;
  }

  /** Estimated bytes held, in total or by one owner. */
  bytes(owner?: string): number {
    return owner === undefined ? this.totalBytes : (this.owners.get(owner)?.bytes ?? 0);
  }

  get size(): number {
    return this.entries.size;
  }

  private touch(id: string, entry: Entry<V>): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    const ids = this.owners.get(entry.owner)!.ids;
    ids.delete(id);
    ids.add(id);
  }

  private insert(id: string, entry: Entry<V>): void {
    const ownerIds = () => this.owners.get(entry.owner)?.ids;
    while (ownerIds()?.size && this.bytes(entry.owner) + entry.bytes > this.budget.maxBytesPerOwner)
      this.evict(ownerIds()!.values().next().value!);
    while (this.entries.size && this.totalBytes + entry.bytes > this.budget.maxBytes) this.evict(this.entries.keys().next().value!);
    const owned = this.owners.get(entry.owner) ?? { ids: new Set<string>(), bytes: 0 };
    this.owners.set(entry.owner, owned);
    this.entries.set(id, entry);
    owned.ids.add(id);
    owned.bytes += entry.bytes;
    this.totalBytes += entry.bytes;
  }

  private evict(id: string): void {
    const entry = this.entries.get(id)!;
    this.entries.delete(id);
    const owned = this.owners.get(entry.owner)!;
    owned.ids.delete(id);
    owned.bytes -= entry.bytes;
    this.totalBytes -= entry.bytes;
    if (!owned.ids.size) this.owners.delete(entry.owner);
  }
}
