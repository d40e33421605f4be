import type { CacheDomain } from "../db/cache-generations.ts";

/** What an API key may do; every route needs one scope, or none when public. */
export type Scope = "read" | "write" | "admin";

/** How the edge cache (src/edge/) may serve a GET route's answers; a route without one is never cached. */
export interface CachePolicy {
  /** The invalidation domains its answers read (the store's settings, read by every answer, are added). */
  domains: readonly CacheDomain[];
  /** One product by the id ending the path: its `products` counter is its bucket's stamp. */
  byProductId?: boolean;
  /** The domains an include adds when the request asks for it (`includes=brand`). */
  includeDomains?: Readonly<Record<string, readonly CacheDomain[]>>;
  /** The domains a list filter adds when the request uses it (`category_ids`). */
  filterDomains?: Readonly<Record<string, readonly CacheDomain[]>>;
  /** Its answers echo the request URL (page links): the key keeps the query string exactly as sent. */
  echoesUrl: boolean;
}

export type BodyLimit = "none" | "standard" | "bulk";

export interface RouteMeta {
  method: string;
  /** OpenAPI-style template, e.g. `/api/v1/brands/{id}`. */
  path: string;
  /** Scope needed; null for public routes (docs, images). */
  scope: Scope | null;
  bodyLimit: BodyLimit;
  /** Which rate-limit budget the route spends. */
  budget: "read" | "write" | "bulk" | null;
  cache?: CachePolicy;
}

interface Pattern {
  path: string;
  segments: string[];
  byMethod: Map<string, RouteMeta>;
}

const isParam = (segment: string) => segment.startsWith("{") || segment === "*";

/**
 * Every route the service answers, so that an unknown path is 404 and a known path with another
 * method is 405 (with `Allow`) before any auth; literal segments win over `{id}` (so `GET /products/bulk` is 405).
 */
export class RouteTable {
  private readonly patterns = new Map<string, Pattern>();

  add(meta: RouteMeta) {
    let pattern = this.patterns.get(meta.path);
    if (!pattern) {
      pattern = {
        path: meta.path,
        segments: meta.path.replace(/\/+$/, "").split("/").slice(1),
        byMethod: new Map(),
      };
      this.patterns.set(meta.path, pattern);
    }
    pattern.byMethod.set(meta.method.toUpperCase(), meta);
  }

  match(method: string, pathname: string): { meta: RouteMeta } | { allow: string[] } | null {
    const segments = pathname.replace(/\/+$/, "").split("/").slice(1);
    let best: Pattern | undefined;
    let bestRank = "";
    for (const pattern of this.patterns.values()) {
      const rank = rankMatch(pattern.segments, segments);
      if (rank !== null && (best === undefined || rank > bestRank)) {
        best = pattern;
        bestRank = rank;
      }
    }
    if (!best) return null;
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    const meta = best.byMethod.get(wanted);
    if (meta) return { meta };
    const allow = [...best.byMethod.keys()];
    if (allow.includes("GET")) allow.push("HEAD");
    return { allow };
  }

  all(): RouteMeta[] {
    return [...this.patterns.values()].flatMap((p) => [...p.byMethod.values()]);
  }
}

/** A string that orders matches: "1" per literal segment, "0" per parameter, left to right. */
function rankMatch(pattern: string[], path: string[]): string | null {
  const last = pattern[pattern.length - 1];
  if (last === "*") {
    if (path.length < pattern.length) return null;
  } else if (pattern.length !== path.length) {
    return null;
  }
  let rank = "";
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const s = path[i] as string;
    if (p === "*") return `${rank}0`;
    if (isParam(p)) {
      if (s === "") return null;
      rank += "0";
    } else if (p === s) {
      rank += "1";
    } else {
      return null;
    }
  }
  return rank;
}

export const routeTable = new RouteTable();
