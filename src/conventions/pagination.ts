/** The pagination object; page links keep every other parameter exactly as sent. */
export function paginationOf(requestUrl: string, page: number, perPage: number, total: number) {
  const totalPages = Math.ceil(total / perPage);
  return {
    current_page: page,
    per_page: perPage,
    total,
    total_pages: totalPages,
    ...(page < totalPages ? { next_page_url: withPage(requestUrl, page + 1) } : {}),
    ...(page > 1 && totalPages > 0
      ? { previous_page_url: withPage(requestUrl, Math.min(page - 1, totalPages)) }
      : {}),
  };
}

/** Replaces the `page` value in place (or appends it), never re-encoding the other parameters. */
export function withPage(requestUrl: string, page: number): string {
  const hashless = requestUrl.split("#")[0] as string;
  const q = hashless.indexOf("?");
  if (q === -1) return `${hashless}?page=${page}`;
  const base = hashless.slice(0, q);
  const parts = hashless
    .slice(q + 1)
    .split("&")
    .filter((p) => p !== "");
  let replaced = false;
  const next = parts.map((part) => {
    if (part === "page" || part.startsWith("page=")) {
      replaced = true;
      return `page=${page}`;
    }
    return part;
  });
  if (!replaced) next.push(`page=${page}`);
  return `${base}?${next.join("&")}`;
}
