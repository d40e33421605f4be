/** An answer as the cache keeps it. */
export interface StoredAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** The body gzip-compressed, once compressed (after the answer that stored it was sent). */
  gzip?: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

const sizeOf = (entry: StoredAnswer) => entry.body.byteLength + (entry.gzip?.byteLength ?? 0);

/**
 * The local stand-in for Workers Cache (`npm run dev`, the tests, the benchmark): the same keys,
 * the same lifetimes (the `max-age` the entrypoint answers), kept in the isolate's memory, least
 * recently used first out beyond `maxBytes`. Workers Cache is not simulated by Miniflare
 * (`ctx.cache` is undefined there), and the Cache API differs from it (no effect on workers.dev,
 * per data centre); memory lets the tests move the clock across 00:00 UTC. As Cloudflare's edge
 * does deployed, a hit is sent gzip-compressed to a client that accepts it: each entry keeps its
 * body compressed too, made once after the miss that stored it.
 */
export class MemoryCache {
  private readonly entries = new Map<string, StoredAnswer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The entry under `id` while it is fresh at `now`. */
  get(id: string, now: number): StoredAnswer | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.remove(id, entry);
    if (now >= entry.expiresAt || now < entry.storedAt) return undefined;
    this.entries.set(id, entry); // most recently used last
    this.bytes += sizeOf(entry);
    return entry;
  }

  put(id: string, entry: StoredAnswer): void {
    const old = this.entries.get(id);
    if (old) this.remove(id, old);
    if (sizeOf(entry) > this.maxBytes) return;
    this.entries.set(id, entry);
    this.bytes += sizeOf(entry);
    this.evict();
  }

  /** Adds the compressed body to `entry`, if it is still the one kept under `id`. */
  addGzip(id: string, entry: StoredAnswer, gzip: Uint8Array): void {
    if (this.entries.get(id) !== entry || entry.gzip) return;
    entry.gzip = gzip;
    this.bytes += gzip.byteLength;
    this.evict();
  }

  private evict() {
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, value);
    }
  }

  private remove(id: string, entry: StoredAnswer) {
    this.entries.delete(id);
    this.bytes -= sizeOf(entry);
  }
}

/** 32 MiB of answers: a quarter of an isolate's 128 MB. */
export const localCache = new MemoryCache(32 * 1024 * 1024);
