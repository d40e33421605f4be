import {
  CACHE_DOMAINS,
  type CacheDomain,
  STAMPED_BUCKETS,
  type StampedDomain,
} from "../db/cache-generations.ts";
import type { CachePolicy } from "../http/route-table.ts";
import type { KnownGenerations } from "./generations.ts";

/**
 * What the gateway hands the cached read entrypoint (`ctx.props`). Workers Cache keys an entry by
 * entrypoint, path, query string, Worker version and these props, never by a request header, so
 * everything that legitimately changes an answer is here or in the URL; the API key never is
 * (every key with `read` scope sees the same catalog).
 */
export interface FillProps {
  /** Marks a call by the gateway: only such a call reaches the entrypoint without a key. */
  cache: "storefront";
  /** The origin page links are built on (Workers Cache leaves the host out of its key). */
  origin: string;
  /** The generations of the domains the answer reads: `products#7=12;store=3`. */
  generations: string;
}

export interface CacheKey {
  /** The URL the entrypoint is called with: the request's path and its (normalised) query. */
  url: string;
  props: FillProps;
  /** The whole key as one string (the local cache's key). */
  id: string;
}

/**
 * The key of a cached read. An answer that echoes its URL (a list's page links are the request's
 * own URL with `page` replaced) keeps the query string as sent. Any other answer depends only on
 * the parameters' values, so URLs that differ in parameter order share one entry: parameters are
 * sorted by name, keeping the order of repeated values (`locales=fr-FR&locales=de-DE` orders the
 * answer's translations) and every byte of each pair as sent.
 */
export function cacheKey(
  requestUrl: string,
  policy: CachePolicy,
  { values, stamps }: Pick<KnownGenerations, "values" | "stamps">,
): CacheKey {
  const url = new URL(requestUrl);
  const query = policy.echoesUrl ? url.search : sortedQuery(url.search);
  const read = readDomains(policy, url.searchParams);
  const productId = policy.byProductId ? Number(url.pathname.split("/").pop()) : Number.NaN;
  // The ids whose buckets' stamps stand for a stamped domain (src/db/cache-generations.ts): one
  // product's answer, and the ids of a filter that reads a stamped domain (`category_ids`); any
  // other answer carries the generation.
  const stampedIds: Partial<Record<CacheDomain, number[] | undefined>> = {
    products: Number.isSafeInteger(productId) && productId >= 1 ? [productId] : undefined,
  };
  for (const [name, domains] of Object.entries(policy.filterDomains ?? {})) {
    for (const d of domains)
      if (Object.hasOwn(STAMPED_BUCKETS, d)) stampedIds[d] = idList(url.searchParams.getAll(name));
  }
  const counter = (d: CacheDomain) => {
    const ids = stampedIds[d];
    if (!ids || !Object.hasOwn(STAMPED_BUCKETS, d)) return `${d}=${values[d]}`;
    const domain = d as StampedDomain;
    const buckets = [...new Set(ids.map((id) => id % STAMPED_BUCKETS[domain]))].sort((a, b) => a - b);
    return `${d}#${buckets.map((b) => `${b}=${stamps[domain]?.[b] ?? values[d]}`).join(",")}`;
  };
  const props: FillProps = {
    cache: "storefront",
    origin: url.origin,
    generations: CACHE_DOMAINS.filter((d) => read.has(d))
      .map(counter)
      .join(";"),
  };
  const target = `${url.origin}${url.pathname}${query}`;
  return { url: target, props, id: `${target} ${props.generations}` };
}

/**
 * The domains an answer to this query reads: the store's settings, the route's own, those of each
 * include asked for and of each filter used. A name that is no include (the answer is a 400, never
 * stored) counts as every include, so no spelling the validator might accept can leave a domain
 * out. Filters are named by the query's decoded names, the names the validator reads.
 */
function readDomains(policy: CachePolicy, query: URLSearchParams): Set<CacheDomain> {
  const read = new Set<CacheDomain>(["store", ...policy.domains]);
  const byInclude = policy.includeDomains ?? {};
  for (const name of query.getAll("includes").flatMap((v) => v.split(","))) {
    // Own names only: `includes=__proto__` is no include either.
    const domains = Object.hasOwn(byInclude, name)
      ? (byInclude[name] ?? [])
      : Object.values(byInclude).flat();
    for (const domain of domains) read.add(domain);
  }
  for (const [name, domains] of Object.entries(policy.filterDomains ?? {})) {
    if (query.has(name)) for (const domain of domains) read.add(domain);
  }
  return read;
}

/** The ids of a list parameter (`1,2`, repeated or not); undefined unless every one is a positive integer. */
function idList(values: string[]): number[] | undefined {
  const ids = values.flatMap((v) => v.split(",")).map((v) => (/^\d{1,15}$/.test(v) ? Number(v) : Number.NaN));
  return ids.length > 0 && ids.every((id) => id >= 1) ? ids : undefined;
}

function sortedQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "");
  if (pairs.length === 0) return "";
  const name = (pair: string) => pair.split("=", 1)[0] as string;
  // Array.prototype.sort is stable: repeated names keep their order.
  pairs.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return `?${pairs.join("&")}`;
}
