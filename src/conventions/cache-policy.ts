import type { CacheDomain } from "../db/cache-generations.ts";
import { products } from "../db/schema/index.ts";
import type { CachePolicy } from "../http/route-table.ts";
import type { AnyResource } from "./resource.ts";

/**
 * The edge cache policy of a resource's list or get: the domains every answer reads, and those each
 * include adds when asked for, so `GET /products/7` stays cached while a brand is renamed and
 * `GET /products/7?includes=brand` does not. Lists echo their URL in page links, and a request using
 * a filter that reads another domain carries it too (`filterCache`).
 */
export function cachePolicy(resource: AnyResource, kind: "list" | "get"): { cache?: CachePolicy } {
  if (!resource.cache) return {};
  const includeDomains: Record<string, readonly CacheDomain[]> = {};
  for (const [name, include] of Object.entries(resource.includes ?? {})) {
    const included = include.resource();
    // An include of something never cached would put it in a cached answer.
    if (!included.cache)
      throw new Error(`${resource.name}: include ${name} (${included.name}) is never cached`);
    includeDomains[name] = included.cache;
  }
  // A product's get is keyed by its own bucket of `products` (src/db/cache-generations.ts).
  const byProductId = kind === "get" && resource.table === products;
  return {
    cache: {
      domains: resource.cache,
      includeDomains,
      ...(kind === "list" && resource.filterCache ? { filterDomains: resource.filterCache } : {}),
      echoesUrl: kind === "list",
      byProductId,
    },
  };
}
