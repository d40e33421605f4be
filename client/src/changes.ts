import type { Client } from "openapi-fetch";
import { StorefrontApiError } from "./errors.ts";
import type { paths } from "./schema.d.ts";
import type { ChangeEntry, ChangeResource } from "./types.ts";

export interface ChangesOptions {
  /** A cursor from an earlier read (`next_cursor`, or an entry's `cursor`); absent: the oldest change kept. */
  after?: string;
  /** Only these resources' entries. */
  resources?: ChangeResource[];
  /** Entries per request (default 100, max 1,000). */
  perPage?: number;
  /** Called with each page's `next_cursor`: store the last one to continue from it next time. */
  onCursor?: (cursor: string) => void;
  signal?: AbortSignal;
}

/**
 * Every change committed after `after`, in commit order, following `next_cursor` page by page
 * until the feed has nothing newer (then it ends; call again later with the last cursor to poll).
 * A cursor older than the feed's retention throws `StorefrontApiError` with status 410
 * (`cursor_expired`): sync everything again, then read from the start.
 */
export async function* changes(
  api: Client<paths>,
  options: ChangesOptions = {},
): AsyncGenerator<ChangeEntry, void, undefined> {
  let after = options.after;
  for (;;) {
    const { data, error, response } = await api.GET("/api/v1/changes", {
      params: {
        query: {
          ...(after !== undefined ? { after } : {}),
          ...(options.resources ? { resources: options.resources } : {}),
          ...(options.perPage !== undefined ? { per_page: options.perPage } : {}),
        },
      },
      signal: options.signal ?? null,
    });
    if (!response.ok || !data) throw new StorefrontApiError("GET", response.url, response.status, error);
    for (const entry of data.data) yield entry;
    options.onCursor?.(data.next_cursor);
    if (data.next_cursor === after) return;
    after = data.next_cursor;
  }
}
