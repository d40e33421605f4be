/** The document's `info.description`: what an integrator needs before reading any operation. */
export const API_OVERVIEW = `
JSON-over-HTTP API for a store's catalog, pricing, contacts, orders, reviews and asynchronous bulk jobs.
Every path is under \`/api/v1\`; this document is at \`/api/v1/openapi.json\` and the interactive reference at \`/docs\`.

## Authentication

Send \`Authorization: Bearer <api key>\` on every operation (keys start with \`sfk_\`; the scheme name is case-insensitive, the key
exact) except the public ones: this document, \`/docs\`, \`GET /api/v1/health\` and stored images. A key holds one or more scopes:
\`read\` (every GET), \`write\` (every POST, PATCH and DELETE on catalog, pricing, reviews and bulk jobs) and
\`admin\` (webhooks, GET included). Each operation names its scope in \`x-required-scope\`.
A missing, malformed, unknown or revoked key gives 401 with \`WWW-Authenticate: Bearer\`; a key without the scope gives 403.
Keys are cached for at most 30 seconds, so a revocation takes effect within 30 seconds.

## Errors

Every 4xx and 5xx answer is [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem JSON
(\`application/problem+json\`, schema \`Problem\`) with a stable \`code\` and the \`request_id\` that is also sent
as \`X-Request-Id\` on every response. A 400 lists every problem of the request in \`errors\`, not just the first.
Checks run in this order and stop at the first failure: route (404, or 405 with \`Allow\`) → 401 → 403 → 429 →
415 → 413 → 400 → 404 for an unknown resource → 409 / 422.

## Reading

- **Fields.** Without \`fields\`, a resource has its fixed and default fields; \`fields=a,b\` returns the fixed fields plus exactly those.
- **Includes.** \`includes\` embeds related objects (products, orders), each in its default representation.
- **Locales.** Translatable fields appear only under \`translations.<locale>\`. \`locales\` selects which (default: the store's primary
  locale; \`ALL\`: every enabled locale). An unsupported or disabled locale is 400 \`unsupported_locale\`.
- **Prices** appear under \`prices.<market>\` for the markets of the requested locales. Money is \`{amount, currency}\` with a
  decimal string amount.
- **Filters** take comma-separated values (repeating the parameter adds values) and combine with AND; values of one filter
  combine with OR. An unknown parameter is 400 \`unknown_parameter\`.
- **Sorting** is \`sort=<field>_<asc|desc>\`; ties break by \`id\` in the same direction.
- **Pagination** is by \`page\` (from 1) and \`per_page\`; lists answer \`{pagination, data}\` with absolute \`next_page_url\` and
  \`previous_page_url\`. A page beyond the last is 404 \`page_not_found\`.
- **Timestamps** are UTC with whole seconds and \`Z\`: \`2026-11-22T05:10:32Z\`.
- **Caching.** GET answers carry a weak \`ETag\`; a matching \`If-None-Match\` gives 304.
- **Edge cache.** Catalog reads (store, brands, categories, suppliers, products, variants, reviews, price lists and their
  sub-resources) are served from a cache shared by every key with \`read\` scope, after the key, scope and rate-limit checks.
  A write ends only the answers that read what it changed (a brand renamed leaves product pages cached unless they
  \`includes=brand\`) and shows within 2 seconds everywhere (at once where it was made); an answer showing prices is never served past the next
  00:00 UTC (flash offers change at day boundaries). Send \`x-d1-bookmark\` or \`Cache-Control: no-cache\` to read without it.
  \`Cache-Status\` (RFC 9211, cache \`storefront\`) says \`hit\`, \`fwd=miss\`, \`fwd=bypass\` or \`fwd=request\`; orders, contacts,
  jobs, webhooks, health and every answer other than 200 are never served from it. Its answers say \`Vary: Accept-Encoding\`:
  a hit goes gzip-compressed to a client that accepts gzip.
- **Consistency.** Responses that used the database carry \`x-d1-bookmark\`; send it back to read data at least as fresh as
  your own last write.

## Writing

- Write bodies are JSON (415 otherwise), at most 1 MiB (10 MiB for bulk operations; 413 beyond), UTF-8, nested at most
  64 levels of objects and arrays, with no lone UTF-16 surrogate in any string or key (400 \`invalid_body\` with the path).
  A 400 lists every problem, up to 1,000 (\`detail\` gives the total).
- Create answers 201 with \`Location\` and the resource. PATCH changes only the fields sent; \`translations\` merge per locale and field.
- POST accepts an \`Idempotency-Key\` header: a retry with the same key and body within 24 hours replays the first answer
  (\`Idempotency-Replayed: true\`); the same key with another body is 422, and a retry while the first is in flight is 409.
  An in-flight claim is a 60-second lease: if the first request dies, a retry after the lease takes the key over.
- Bulk operations validate only the request's structure, then answer 202 with the job id. Records are validated and applied
  by the job; read the outcome from the job and its logs, or subscribe a webhook to job completion.
- Jobs always end: one that makes no progress for 5 minutes is re-driven from its first unapplied chunk, and after 3 re-drives
  without progress it ends with its unprocessed records failed (one \`OTHER\` log entry). \`POST /api/v1/jobs/{id}/cancel\` ends
  a pending or running job at a chunk boundary the same way. Jobs not final after 30 days are failed, then deleted.

## Rate limits

Per API key over 60 seconds: 1,200 reads, 300 writes and 30 bulk requests. Beyond that: 429 \`rate_limited\` with \`Retry-After\`.
`.trim();
