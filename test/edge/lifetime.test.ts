import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_LIFETIME_SECONDS } from "../../src/edge/lifetime.ts";
import { api } from "../support/api.ts";
import { cacheStatus, HIT, MISS } from "../support/edge.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { unique } from "../support/unique.ts";

afterEach(() => vi.useRealTimers());

/** Moves the clock the Worker reads (`Date`), leaving timers alone. */
const at = (iso: string) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
};

/** The cached read entrypoint, called as the gateway calls it: no API key, the key's parts as props. */
const fill = (path: string) =>
  (exports as unknown as Record<string, (o: { props: unknown }) => Fetcher>)
    .CachedReads?.({
      props: { cache: "storefront", origin: "https://api.test", generations: "test" },
    })
    .fetch(`https://api.test${path}`, { headers: { "x-storefront-fill": "nonce-1" } }) as Promise<Response>;

describe("lifetimes", () => {
  it("an answer showing prices is not served after the next 00:00 UTC: a flash offer ends on time", async () => {
    at("2026-06-30T23:59:30Z");
    const { id } = await createProduct({
      variants: [
        {
          prices: {
            market_es: { list: "20.00", flash: { price: "9.99", from: "2026-06-30", until: "2026-06-30" } },
          },
        },
      ],
    });
    const path = `/api/v1/products/${id}/variants`;
    const before = await api(path);
    expect(before.json.data[0].prices.market_es.selling_price.amount).toBe("9.99");
    expect(cacheStatus(await api(path))).toBe(HIT);
    at("2026-07-01T00:00:00Z");
    const after = await api(path);
    expect(cacheStatus(after)).toBe(MISS);
    expect(after.json.data[0].prices.market_es.selling_price.amount).toBe("20.00");
  });

  it("an answer without prices outlives the day boundary", async () => {
    at("2026-06-30T23:59:30Z");
    const brand = await api("/api/v1/brands", {
      method: "POST",
      body: { name: unique("Day"), translations: {} },
    });
    const path = `/api/v1/brands/${brand.json.id}`;
    await api(path);
    at("2026-07-01T00:00:30Z");
    expect(cacheStatus(await api(path))).toBe(HIT);
  });

  it("the entrypoint allows the cache to keep an answer with prices until 00:00 UTC, others an hour", async () => {
    at("2026-06-30T23:50:00Z");
    const { id } = await createProduct();
    const priced = await fill(`/api/v1/products/${id}/variants`);
    expect(priced.status).toBe(200);
    expect(priced.headers.get("cache-control")).toBe("public, max-age=600");
    const plain = await fill(`/api/v1/products/${id}?fields=status`);
    expect(plain.headers.get("cache-control")).toBe(`public, max-age=${MAX_LIFETIME_SECONDS}`);
    expect(plain.headers.get("x-storefront-fill")).toBe("nonce-1");
  });

  it("the entrypoint never lets an error be kept, and serves nothing but cacheable reads", async () => {
    const missing = await fill("/api/v1/products/987654321");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
    const orders = await fill("/api/v1/orders");
    expect(orders.status).toBe(404);
    expect(orders.headers.get("cache-control")).toBe("no-store");
  });

  it("deployed, the gateway always asks the entrypoint (Workers Cache in front): an answer echoing its nonce is a miss", async () => {
    const { id } = await createProduct();
    const production = { ...env, ENVIRONMENT: "production" } as typeof env;
    const first = await api(`/api/v1/products/${id}`, { bindings: production });
    const second = await api(`/api/v1/products/${id}`, { bindings: production });
    expect([first.status, second.status]).toEqual([200, 200]);
    // No Workers Cache under Miniflare: the entrypoint computes each time, and nothing is kept locally.
    expect([cacheStatus(first), cacheStatus(second)]).toEqual([MISS, MISS]);
    expect(second.text).toBe(first.text);
  });
});
