import { StorefrontApiError } from "./errors.ts";
import type { LooseClient } from "./loose.ts";
import type { ListItem, ListParams, ListPath } from "./types.ts";

export type PaginateArgs<P extends ListPath> =
  Record<never, never> extends ListParams<P>
    ? [options?: { params?: ListParams<P> }]
    : [options: { params: ListParams<P> }];

interface Page {
  data: unknown[];
  pagination: { current_page: number; next_page_url?: string };
}

/**
 * Every item of every page of a list, in order: asks for the first page with the given parameters,
 * then follows `pagination.next_page_url` until a page has none.
 */
export async function* paginate<P extends ListPath>(
  client: LooseClient,
  path: P,
  ...[options]: PaginateArgs<P>
): AsyncGenerator<ListItem<P>, void, undefined> {
  const params: { query?: Record<string, unknown>; path?: Record<string, unknown> } = options?.params ?? {};
  let page: number | undefined = pageNumber(params.query?.page) ?? 1;
  while (page !== undefined) {
    const { data, error, response } = await client.GET(path, {
      params: { ...params, query: { ...params.query, page } },
    });
    if (!response.ok || !isPage(data)) {
      throw new StorefrontApiError("GET", response.url, response.status, error ?? data);
    }
    for (const item of data.data) yield item as ListItem<P>;
    page = nextPage(data.pagination);
  }
}

function nextPage(pagination: Page["pagination"]): number | undefined {
  if (pagination.next_page_url === undefined) return undefined;
  return (
    pageNumber(new URL(pagination.next_page_url).searchParams.get("page")) ?? pagination.current_page + 1
  );
}

function pageNumber(value: unknown): number | undefined {
  const page = Number(value);
  return value !== undefined && value !== null && Number.isInteger(page) && page >= 1 ? page : undefined;
}

function isPage(value: unknown): value is Page {
  if (typeof value !== "object" || value === null) return false;
  if (!("data" in value && Array.isArray(value.data))) return false;
  if (!("pagination" in value)) return false;
  const pagination = value.pagination;
  return (
    typeof pagination === "object" &&
    pagination !== null &&
    "current_page" in pagination &&
    typeof pagination.current_page === "number"
  );
}
