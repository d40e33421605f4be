import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { ERROR_RESPONSES } from "../http/openapi-shared.ts";
import { ApiError } from "../http/problem.ts";
import { defineRoute } from "../http/route.ts";
import { logUnconfiguredOrigin, publicOrigin } from "../images/index.ts";
import { VERSION } from "../version.ts";

export const HEALTH_PATH = "/api/v1/health";

/** How long a probe may take before its store counts as not answering. */
export const PROBE_TIMEOUT_MS = 2_000;

const CheckStatus = z.enum(["ok", "unavailable"]);

const Health = z
  .object({
    status: z.literal("ok"),
    version: z.string().openapi({ description: "The deployed version (CHANGELOG.md, `info.version`)." }),
    public_origin: z.string().nullable().openapi({
      description:
        "The origin every `image_url` is built on (`PUBLIC_BASE_URL`; `npm run dev` sets its own address, `npm run deploy` the custom domain or the workers.dev address). No request header changes it. `null`: this deployment has none configured; image URLs are then root-relative (`/images/<sha256>.<ext>`) and the Worker logs the error `public_origin.unconfigured`.",
      example: "https://api.example.com",
    }),
    checks: z.object({
      d1: CheckStatus.openapi({ description: "Whether the D1 database answered a `SELECT 1`." }),
      r2: CheckStatus.openapi({ description: "Whether both R2 buckets (payloads, images) answered." }),
    }),
  })
  .openapi("Health", {
    example: {
      status: "ok",
      version: VERSION,
      public_origin: "https://api.example.com",
      checks: { d1: "ok", r2: "ok" },
    },
  });

type Health = z.infer<typeof Health>;
type Checks = { d1: z.infer<typeof CheckStatus>; r2: z.infer<typeof CheckStatus> };

/** Resolves to `ok` when `probe` settles without error within the timeout, else `unavailable`. */
async function check(probe: () => Promise<unknown>): Promise<Checks["d1"]> {
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

/**
 * `GET /api/v1/health`: public, reads no data, answers 503 when D1 or R2 does not answer.
 * The 503 is problem JSON like every other error, with `version` and `checks` as extension members.
 */
export function registerHealth(app: OpenAPIHono<AppEnv>) {
  defineRoute(
    app,
    {
      method: "get",
      path: HEALTH_PATH,
      operationId: "getHealth",
      summary: "Check the service's health",
      description: `Whether the service's D1 database and R2 buckets answer, the deployed version and the public origin image URLs are built on. No API key; no data. Each check gives up after ${PROBE_TIMEOUT_MS / 1000} s. When one does not answer: 503 \`service_unavailable\` problem JSON that also carries \`version\`, \`public_origin\` and \`checks\`. For uptime monitors and deploy checks; it is not rate limited, so poll it at most every few seconds.`,
      tags: ["Health"],
      scope: null,
      responses: {
        200: {
          description: "D1 and R2 both answer",
          content: { "application/json": { schema: Health } },
        },
        503: ERROR_RESPONSES[503],
      },
    },
    async (c) => {
      const origin = publicOrigin(c.env);
      // Health is what monitors poll: an unconfigured origin is logged at every check, not once.
      if (origin === null) logUnconfiguredOrigin(true);
      const [d1, r2] = await Promise.all([check(() => probeD1(c)), check(() => probeR2(c))]);
      const checks: Checks = { d1, r2 };
      const down = (["d1", "r2"] as const).filter((store) => checks[store] !== "ok");
      if (down.length > 0) {
        throw new ApiError(
          "service_unavailable",
          `${down.map((store) => store.toUpperCase()).join(" and ")} did not answer`,
          [],
          { "Cache-Control": "no-store" },
          { version: VERSION, public_origin: origin, checks },
        );
      }
      const body: Health = {
        status: "ok",
        version: VERSION,
        public_origin: origin,
        checks: { d1: "ok", r2: "ok" },
      };
      return c.json(body, 200, { "Cache-Control": "no-store" });
    },
  );
}
