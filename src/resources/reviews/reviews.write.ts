import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { getStoreSettings } from "../../conventions/store-settings.ts";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { runWrite } from "../../conventions/write/run-write.ts";
import { generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { batch } from "../../db/client.ts";
import { contacts, orders, products, reviews, variants } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound, type ProblemCode, type ProblemDetailItem, validationError } from "../../http/problem.ts";
import { isoSeconds } from "../../lib/time.ts";
import { reviewResource } from "./reviews.resource.ts";
import { crossFieldProblems, type ReviewCreate, type ReviewUpdate } from "./reviews.schema.ts";

type ReviewRow = typeof reviews.$inferSelect;
type Problem = ProblemDetailItem & { code?: ProblemCode };

/** The references a review body names (a value sent, or for PATCH the merged one), to check in one trip. */
interface References {
  order_id?: number | null;
  customer_id?: number | null;
  product_id?: number | null;
  /** The variant whose product must be `product_id` (merged state); `SQL` reads it from the stored row. */
  variant?: number | SQL | null;
  /** Whether `variant_id` itself was sent (an unknown stored variant is not the client's problem). */
  variantSent: boolean;
}

const body = (path: string, message: string, code?: ProblemCode): Problem => ({
  location: "body",
  path,
  message,
  ...(code ? { code } : {}),
});

/**
 * Every problem that needs storage: a locale not enabled, unknown order / customer / product /
 * variant (one entry each). `current` loads the row being patched in the same round trip; the
 * variant found is returned for the ownership check on the merged state.
 */
async function referenceProblems(
  c: Context<AppEnv>,
  locale: string | undefined,
  refs: References,
  current?: BatchItem<"sqlite">,
) {
  const db = c.get("db");
  const queries: { name: string; query: BatchItem<"sqlite"> }[] = [];
  if (current) queries.push({ name: "current", query: current });
  if (refs.order_id) {
    queries.push({
      name: "order",
      query: db.select({ id: orders.id }).from(orders).where(eq(orders.id, refs.order_id)),
    });
  }
  if (refs.customer_id) {
    queries.push({
      name: "customer",
      query: db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, refs.customer_id)),
    });
  }
  if (refs.product_id) {
    queries.push({
      name: "product",
      query: db.select({ id: products.id }).from(products).where(eq(products.id, refs.product_id)),
    });
  }
  if (refs.variant !== undefined && refs.variant !== null) {
    queries.push({
      name: "variant",
      query: db
        .select({ id: variants.id, productId: variants.productId })
        .from(variants)
        .where(eq(variants.id, refs.variant)),
    });
  }
  const results: Record<string, unknown[]> = {};
  if (queries.length > 0) {
    const out = await batch(c, queries.map((q) => q.query) as [BatchItem<"sqlite">]);
    queries.forEach((q, i) => {
      results[q.name] = out[i] as unknown[];
    });
  }
  const problems: Problem[] = [];
  if (locale !== undefined) {
    const store = await getStoreSettings(c);
    if (!store.enabledLocales.includes(locale))
      problems.push(body("locale", `${locale} is not enabled for this store`, "unsupported_locale"));
  }
  const missing = (name: string) => results[name] !== undefined && results[name].length === 0;
  if (missing("order")) problems.push(body("order_id", `order ${refs.order_id} does not exist`));
  if (missing("customer")) problems.push(body("customer_id", `contact ${refs.customer_id} does not exist`));
  if (missing("product")) problems.push(body("product_id", `product ${refs.product_id} does not exist`));
  if (refs.variantSent && missing("variant"))
    problems.push(body("variant_id", `variant ${refs.variant} does not exist`));
  return {
    problems,
    current: results.current?.[0] as ReviewRow | undefined,
    variant: results.variant?.[0] as { id: number; productId: number } | undefined,
  };
}

/** A variant must belong to the review's product (both as they will be stored). */
function ownershipProblems(variant: { id: number; productId: number } | undefined, productId: number | null) {
  return variant && productId !== null && variant.productId !== productId
    ? [body("variant_id", `variant ${variant.id} is not a variant of product ${productId}`)]
    : [];
}

export async function createReview(c: Context<AppEnv>, input: ReviewCreate): Promise<number> {
  const { problems, variant } = await referenceProblems(c, input.locale, {
    order_id: input.order_id,
    customer_id: input.customer_id,
    product_id: input.product_id,
    variant: input.variant_id,
    variantSent: input.variant_id != null,
  });
  problems.push(...ownershipProblems(variant, input.product_id ?? null));
  if (problems.length > 0) throw validationError(problems);
  const db = c.get("db");
  const now = isoSeconds();
  const [[row]] = await runWrite(c, {}, () =>
    db.batch([
      db
        .insert(reviews)
        // The body carries every NOT NULL column but `created_at` (its schema requires or defaults them).
        .values({
          ...columnChanges(reviewResource, input),
          createdAt: input.created_at ?? now,
          updatedAt: now,
        } as typeof reviews.$inferInsert)
        .returning({ id: reviews.id }),
      routeFeedEntry(db, "reviews", sql`last_insert_rowid()`),
      generationBump(db, ["reviews"]),
    ]),
  );
  return (row as { id: number }).id;
}

const pick = <T>(sent: T | undefined, stored: T) => (sent === undefined ? stored : sent);

/** PATCH: only the fields sent change; `type` vs product and variant hold on the merged state. */
export async function updateReview(c: Context<AppEnv>, id: number, input: ReviewUpdate): Promise<void> {
  const db = c.get("db");
  const storedVariant = sql`(SELECT ${reviews.variantId} FROM ${reviews} WHERE ${reviews.id} = ${id})`;
  const { problems, current, variant } = await referenceProblems(
    c,
    input.locale,
    {
      order_id: input.order_id,
      customer_id: input.customer_id,
      product_id: input.product_id,
      variant: input.variant_id === undefined ? storedVariant : input.variant_id,
      variantSent: input.variant_id != null,
    },
    db.select().from(reviews).where(eq(reviews.id, id)),
  );
  if (current) {
    const merged = {
      type: pick(input.type, current.type),
      product_id: pick(input.product_id, current.productId),
      variant_id: pick(input.variant_id, current.variantId),
    };
    for (const p of crossFieldProblems(merged)) problems.push(body(p.path, p.message));
    problems.push(...ownershipProblems(variant, merged.product_id));
  }
  // 400 comes before 404 (the order of checks in README "Conventions").
  if (problems.length > 0) throw validationError(problems);
  if (!current) throw notFound("Review");

  const changes = { ...columnChanges(reviewResource, input), updatedAt: isoSeconds() };
  await runWrite(c, {}, () =>
    db.batch([
      db.update(reviews).set(changes).where(eq(reviews.id, id)),
      routeFeedEntry(db, "reviews", id, { ifChanged: true }),
      generationBump(db, ["reviews"], { ifChanged: true }),
    ]),
  );
}
