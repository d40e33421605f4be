import { CACHE_DOMAINS, generationBump } from "../../src/db/cache-generations.ts";
import { forgetGenerations } from "../../src/edge/generations.ts";
import type { ApiResponse } from "./api.ts";
import { testDb } from "./test-db.ts";

/** The `Cache-Status` the service sent (RFC 9211; the cache is named `storefront`). */
export const cacheStatus = (res: ApiResponse) => res.headers.get("cache-status");

export const HIT = "storefront; hit";
export const MISS = "storefront; fwd=miss";
export const BYPASS = "storefront; fwd=bypass";
export const REQUEST = "storefront; fwd=request";

/** Headers that may differ between a cached answer and an uncached one (and between two requests). */
const PER_REQUEST = new Set(["cache-status", "age", "server-timing", "x-request-id", "x-d1-bookmark"]);

/** The answer's headers except those that belong to one request, for byte-identity checks. */
export const stableHeaders = (res: ApiResponse) =>
  Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST.has(name)));

/**
 * What an operator does after changing D1 outside the service (a test writing rows directly):
 * bump every domain, as the service's own writes bump theirs, so no cached answer predates it.
 */
export async function changedOutsideTheService() {
  await testDb().batch([generationBump(testDb(), CACHE_DOMAINS)]);
  forgetGenerations();
}
