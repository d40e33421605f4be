/** An answer as the cache keeps it. */
interface StoredAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/**
 * The local stand-in for Workers Cache (`npm run dev`, the tests, the benchmark): the same keys,
 * the same lifetimes (the `max-age` the entrypoint answers), kept in the isolate's memory, least
 * recently used first out beyond `maxBytes`. Workers Cache is not simulated by Miniflare
 * (`ctx.cache` is undefined there), and the Cache API differs from it (no effect on workers.dev,
 * per data centre); memory lets the tests move the clock across 00:00 UTC.
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
    this.bytes += entry.body.byteLength;
    return entry;
  }

  put(id: string, entry: StoredAnswer): void {
    const old = this.entries.get(id);
    if (old) this.remove(id, old);
    if (entry.body.byteLength > this.maxBytes) return;
    this.entries.set(id, entry);
    this.bytes += entry.body.byteLength;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, value);
    }
  }

  private remove(id: string, entry: StoredAnswer) {
    this.entries.delete(id);
    this.bytes -= entry.body.byteLength;
  }
}

/** 32 MiB of answers: a quarter of an isolate's 128 MB. */
export const localCache = new MemoryCache(32 * 1024 * 1024);
