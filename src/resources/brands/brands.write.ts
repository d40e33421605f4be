import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { generatedSlug } from "../../conventions/write/generated-slug.ts";
import { runWrite } from "../../conventions/write/run-write.ts";
import { assertEnabledLocales, translationStatements } from "../../conventions/write/translations.ts";
import { generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { countTrip } from "../../db/client.ts";
import { brands } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { notFound } from "../../http/problem.ts";
import { resolveImageUrl } from "../../images/image-field.ts";
import { constraintViolation } from "../../lib/errors.ts";
import { slugify } from "../../lib/slug.ts";
import { isoSeconds } from "../../lib/time.ts";
import { brandResource } from "./brands.resource.ts";
import type { BrandCreate, BrandUpdate } from "./brands.schema.ts";

const UNIQUE = {
  brands_internal_id_unique: { path: "internal_id", message: "is already used by another brand" },
  brands_slug_unique: { path: "slug", message: "is already used by another brand" },
};

/** The id of the row the same batch just inserted (D1 runs a batch as one serialized transaction). */
const justInsertedId = sql`(SELECT MAX(id) FROM brands)`;

export async function createBrand(c: Context<AppEnv>, body: BrandCreate): Promise<number> {
  await assertEnabledLocales(c, Object.keys(body.translations));
  const imageUrl = await resolveImageUrl(c, body.image_url, null);
  const db = c.get("db");
  for (let attempt = 0; ; attempt++) {
    const base = slugify(body.name);
    const byId = sql`'brand-' || (SELECT COALESCE(MAX(id), 0) + 1 FROM brands)`;
    const slug = body.slug ?? (base ? await generatedSlug(c, brands.slug, base, byId) : byId);
    const statements: BatchItem<"sqlite">[] = [
      // The body carries `name` (its schema requires it): with `slug`, every NOT NULL column is set.
      db.insert(brands).values({
        ...columnChanges(brandResource, body),
        slug,
        imageUrl: imageUrl ?? null,
      } as typeof brands.$inferInsert),
      ...translationStatements(db, brandResource, justInsertedId, body.translations),
      routeFeedEntry(db, "brands", justInsertedId),
      generationBump(db, ["brands"]),
      db.select({ id: brands.id }).from(brands).where(eq(brands.id, justInsertedId)),
    ];
    try {
      const rules = body.slug ? UNIQUE : { brands_internal_id_unique: UNIQUE.brands_internal_id_unique };
      const results = await runWrite(c, rules, () => db.batch(statements as [BatchItem<"sqlite">]));
      const last = results[results.length - 1] as { id: number }[];
      return (last[0] as { id: number }).id;
    } catch (err) {
      // A generated slug taken by a concurrent writer: look again (the index stays the arbiter).
      if (body.slug === undefined && attempt < 3 && isSlugRace(err)) continue;
      throw err;
    }
  }
}

const isSlugRace = (err: unknown) => constraintViolation("UNIQUE", err, "brands") === "brands.slug";

export async function updateBrand(c: Context<AppEnv>, id: number, body: BrandUpdate): Promise<void> {
  const db = c.get("db");
  countTrip(c);
  const [current] = await db.select({ imageUrl: brands.imageUrl }).from(brands).where(eq(brands.id, id));
  if (!current) throw notFound("Brand");
  if (body.translations) await assertEnabledLocales(c, Object.keys(body.translations));
  const imageUrl = await resolveImageUrl(c, body.image_url, current.imageUrl);
  const changes = {
    ...columnChanges(brandResource, body),
    ...(imageUrl !== undefined ? { imageUrl } : {}),
    updatedAt: isoSeconds(),
  };
  await runWrite(c, UNIQUE, () =>
    db.batch([
      db.update(brands).set(changes).where(eq(brands.id, id)),
      ...translationStatements(db, brandResource, id, body.translations ?? {}),
      routeFeedEntry(db, "brands", id),
      generationBump(db, ["brands"]),
    ]),
  );
}
