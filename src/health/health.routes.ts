import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { defineRoute } from "../http/route.ts";
import { VERSION } from "../version.ts";

export const HEALTH_PATH = "/api/v1/health";

/** How long a probe may take before its store counts as not answering. */
export const PROBE_TIMEOUT_MS = 2_000;

const CheckStatus = z.enum(["ok", "unavailable"]);

const Health = z
  .object({
    status: CheckStatus.openapi({ description: "`ok` when every check is `ok`." }),
    version: z.string().openapi({ description: "The deployed version (CHANGELOG.md, `info.version`)." }),
    checks: z.object({
      d1: CheckStatus.openapi({ description: "Whether the D1 database answered a `SELECT 1`." }),
      r2: CheckStatus.openapi({ description: "Whether both R2 buckets (payloads, images) answered." }),
    }),
  })
  .openapi("Health", {
    example: { status: "ok", version: VERSION, checks: { d1: "ok", r2: "ok" } },
  });

type Health = z.infer<typeof Health>;

/** Resolves to `ok` when `probe` settles without error within the timeout, else `unavailable`. */
async function check(probe: () => Promise<unknown>): Promise<Health["checks"]["d1"]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"unavailable">((resolve) => {
    timer = setTimeout(() => resolve("unavailable"), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      (async () => {
        await probe();
        return "ok" as const;
      })().catch(() => "unavailable" as const),
      timeout,
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

async function probeD1(c: Context<AppEnv>) {
  c.get("dbStats").roundTrips++;
  await c.get("db").$client.prepare("SELECT 1").first();
}

/** A HEAD of a key no object has: answers `null` when the bucket answers, throws when it does not. */
const probeR2 = (c: Context<AppEnv>) =>
  Promise.all([c.env.PAYLOADS.head("health-check"), c.env.IMAGES.head("health-check")]);

/** `GET /api/v1/health`: public, reads no data, answers 503 when D1 or R2 does not answer (DECISIONS 13). */
export function registerHealth(app: OpenAPIHono<AppEnv>) {
  defineRoute(
    app,
    {
      method: "get",
      path: HEALTH_PATH,
      operationId: "getHealth",
      summary: "Check the service's health",
      description: `Whether the service's D1 database and R2 buckets answer, and the deployed version. No API key; no data. Each check gives up after ${PROBE_TIMEOUT_MS / 1000} s. For uptime monitors and deploy checks; it is not rate limited, so poll it at most every few seconds.`,
      tags: ["Health"],
      scope: null,
      responses: {
        200: {
          description: "D1 and R2 both answer",
          content: { "application/json": { schema: Health } },
        },
        503: {
          description: "D1 or R2 does not answer (the body says which)",
          content: { "application/json": { schema: Health } },
        },
      },
    },
    async (c) => {
      const [d1, r2] = await Promise.all([check(() => probeD1(c)), check(() => probeR2(c))]);
      const healthy = d1 === "ok" && r2 === "ok";
      const body: Health = { status: healthy ? "ok" : "unavailable", version: VERSION, checks: { d1, r2 } };
      return c.json(body, healthy ? 200 : 503, { "Cache-Control": "no-store" });
    },
  );
}
