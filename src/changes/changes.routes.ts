import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { CHANGE_KINDS, FEED_RESOURCES } from "../db/schema/enums.ts";
import type { AppEnv } from "../env.ts";
import { ERROR_RESPONSES } from "../http/openapi-shared.ts";
import { enumListParam, intParam } from "../http/params.ts";
import { defineRoute } from "../http/route.ts";
import { FEED_SCAN, feedPage } from "./feed-page.ts";

const CURSOR_EXAMPLE = "c00000000016";

const ChangeEntry = z
  .object({
    cursor: z.string().openapi({
      description:
        "This entry's position: `after=<cursor>` lists the entries committed after it. Opaque, and monotonic: a later commit's cursor sorts after an earlier one's (as text too).",
      example: CURSOR_EXAMPLE,
    }),
    resource: z.enum(FEED_RESOURCES),
    id: z.number().int().openapi({ example: 42 }),
    internal_id: z.string().nullable().openapi({
      description: "The entity's `internal_id` when it has one (reviews have none).",
      example: "PRD-000042",
    }),
    change: z.enum(CHANGE_KINDS).openapi({
      description:
        "`upserted`: created or changed; `deleted`: removed (read it again to get what it is now).",
    }),
    changed_at: z.string().openapi({ example: "2026-11-27T06:00:00Z" }),
  })
  .openapi("ChangeEntry");

const ChangePage = z
  .object({
    data: z.array(ChangeEntry),
    next_cursor: z.string().openapi({
      description:
        "Where to continue: send it as `after` next time. Never null: store it and poll; a page shorter than `per_page` means nothing more was committed yet (or, with `resources`, that the page examined its " +
        `${FEED_SCAN.toLocaleString("en-US")} entries).`,
      example: CURSOR_EXAMPLE,
    }),
  })
  .openapi("ChangePage");

const ChangesQuery = z
  .object({
    after: z.string().max(64).optional().openapi({
      description:
        "A cursor from an earlier answer (`next_cursor`, or an entry's `cursor`): lists the changes committed after it. Absent: from the oldest change kept.",
    }),
    resources: enumListParam(FEED_RESOURCES, "Only entries of these resources (comma-separated).").optional(),
    per_page: intParam({
      min: 1,
      max: 1000,
      description: "Entries per page (default 100, max 1,000).",
    }).optional(),
  })
  .strict();

export function registerChanges(app: OpenAPIHono<AppEnv>) {
  defineRoute(
    app,
    {
      method: "get",
      path: "/api/v1/changes",
      operationId: "listChanges",
      summary: "List catalog changes (change feed)",
      description: [
        "The catalog's changes in commit order, for keeping a search index, a marketplace or a cache in sync: one entry per entity changed by each commit (a route write, a bulk job's chunk), written in the same transaction as the change. A variant's change also lists its product; a price list's fixed prices list the price list. A bulk record that changed nothing adds no entry.",
        "Follow `next_cursor`: a client that reads every entity listed after cursor X has seen every change committed after X. An entry says which entity changed, not how: read the entity (`GET /api/v1/<resource>/{id}`, or a list filtered by ids) for what it is now. The same entity appears again for each later commit that changes it.",
        "Entries are kept at least 7 days; an older cursor is 410 `cursor_expired` (sync everything again, then read from the start).",
      ].join("\n\n"),
      tags: ["Changes"],
      scope: "read",
      query: ChangesQuery,
      responses: {
        200: { description: "A page of changes", content: { "application/json": { schema: ChangePage } } },
        410: ERROR_RESPONSES[410],
      },
    },
    async (c, { query }) => c.json(await feedPage(c, query), 200),
  );
}
