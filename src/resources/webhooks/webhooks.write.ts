import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { generateSecret } from "../../async/deliveries/secret.ts";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { countTrip } from "../../db/client.ts";
import { webhooks } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { checkOutboundUrl } from "../../http/outbound-guard.ts";
import { ApiError, notFound } from "../../http/problem.ts";
import { isoSeconds } from "../../lib/time.ts";
import { webhookResource } from "./webhooks.resource.ts";
import type { WebhookCreate, WebhookUpdate } from "./webhooks.schema.ts";

/**
 * The URL checked against the running environment: the body schema already refused what every
 * environment refuses, so this only catches loopback targets outside development.
 */
function assertDeliverableUrl(c: Context<AppEnv>, url: string | undefined) {
  if (url === undefined) return;
  const check = checkOutboundUrl(url, c.env);
  if (!check.ok) {
    throw new ApiError("invalid_body", `url: ${check.message}`, [
      { location: "body", path: "url", message: check.message },
    ]);
  }
}

/** Creates the subscription; answers its id and, to be shown this once, its signing secret. */
export async function createWebhook(c: Context<AppEnv>, body: WebhookCreate) {
  assertDeliverableUrl(c, body.url);
  const secret = generateSecret();
  countTrip(c);
  const [row] = await c
    .get("db")
    .insert(webhooks)
    // The body carries `url` and `events` (its schema requires them): with `secret`, every NOT NULL
    // column is set.
    .values({ ...columnChanges(webhookResource, body), secret } as typeof webhooks.$inferInsert)
    .returning({ id: webhooks.id });
  return { id: (row as { id: number }).id, extras: { secret } };
}

/** Applies the fields sent; answers the new secret when `rotate_secret` asked for one. */
export async function updateWebhook(c: Context<AppEnv>, id: number, body: WebhookUpdate) {
  assertDeliverableUrl(c, body.url);
  const now = isoSeconds();
  const secret = body.rotate_secret ? generateSecret() : undefined;
  const changes = {
    ...columnChanges(webhookResource, body),
    // Re-enabling forgets the failing streak, so the subscription gets a fresh 3 days.
    ...(body.status === "active" ? { status: "active" as const, disabledAt: null, failingSince: null } : {}),
    // Pausing an already disabled subscription keeps its original `disabled_at`.
    ...(body.status === "disabled"
      ? { status: "disabled" as const, disabledAt: sql`COALESCE(${webhooks.disabledAt}, ${now})` }
      : {}),
    ...(secret ? { secret } : {}),
    updatedAt: now,
  };
  countTrip(c);
  const rows = await c
    .get("db")
    .update(webhooks)
    .set(changes)
    .where(eq(webhooks.id, id))
    .returning({ id: webhooks.id });
  if (rows.length === 0) throw notFound("Webhook");
  return secret ? { secret } : {};
}

export async function deleteWebhook(c: Context<AppEnv>, id: number) {
  countTrip(c);
  const rows = await c.get("db").delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
  if (rows.length === 0) throw notFound("Webhook");
}
