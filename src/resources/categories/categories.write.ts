import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { jsonIn } from "../../conventions/sql.ts";
import { columnChanges } from "../../conventions/write/column-changes.ts";
import { generatedSlug } from "../../conventions/write/generated-slug.ts";
import { runWrite } from "../../conventions/write/run-write.ts";
import { assertEnabledLocales, translationStatements } from "../../conventions/write/translations.ts";
import { categoryTreeBump, generationBump } from "../../db/cache-generations.ts";
import { routeFeedEntry } from "../../db/change-feed.ts";
import { batch } from "../../db/client.ts";
import { categories, categoryTranslations } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { ApiError, notFound } from "../../http/problem.ts";
import { resolveImageUrl } from "../../images/image-field.ts";
import { constraintViolation } from "../../lib/errors.ts";
import { slugify } from "../../lib/slug.ts";
import { isoSeconds } from "../../lib/time.ts";
import { categoryResource } from "./categories.resource.ts";
import type { CategoryCreate, CategoryUpdate } from "./categories.schema.ts";

const UNIQUE = {
  categories_internal_id_unique: { path: "internal_id", message: "is already used by another category" },
};

/** The id of the row the same batch just inserted (D1 runs a batch as one serialized transaction). */
const justInsertedId = sql`(SELECT MAX(id) FROM categories)`;

type TranslationsBody = NonNullable<CategoryUpdate["translations"]>;

async function assertParentExists(c: Context<AppEnv>, parentId: number | null | undefined) {
  if (parentId === undefined || parentId === null) return;
  const [row] = await batch(c, [
    c.get("db").select({ id: categories.id }).from(categories).where(eq(categories.id, parentId)),
  ]);
  if (row.length === 0) {
    throw new ApiError("invalid_body", `parent_id: category ${parentId} does not exist`, [
      { location: "body", path: "parent_id", message: `category ${parentId} does not exist` },
    ]);
  }
}

/**
 * Generated slugs for locales that get a new translation without a supplied slug: from the name,
 * or `category-<id>` when there is none. Each is an SQL expression that
 * picks a still-free candidate inside the write itself (concurrent writers of one name each get one).
 */
async function generatedSlugs(
  c: Context<AppEnv>,
  translations: TranslationsBody,
  newLocales: string[],
  byId: SQL | string,
) {
  const out: Record<string, SQL | string> = {};
  for (const locale of newLocales) {
    const entry = translations[locale];
    if (!entry || entry.slug !== undefined) continue;
    const base = entry.name ? slugify(entry.name) : "";
    out[locale] = base
      ? await generatedSlug(c, categoryTranslations.slug, base, byId, eq(categoryTranslations.locale, locale))
      : byId;
  }
  return out;
}

const slugConflict = (translations: TranslationsBody) =>
  Object.entries(translations)
    .filter(([, entry]) => entry?.slug !== undefined)
    .map(([locale]) => [
      `category_translations_slug_${locale}`,
      { path: `translations.${locale}.slug`, message: "is already used by another category in this locale" },
    ]);

export async function createCategory(c: Context<AppEnv>, body: CategoryCreate): Promise<number> {
  await assertEnabledLocales(c, Object.keys(body.translations));
  await assertParentExists(c, body.parent_id);
  const imageUrl = await resolveImageUrl(c, body.image_url, null);
  const db = c.get("db");
  for (let attempt = 0; ; attempt++) {
    const byId = sql`'category-' || (SELECT MAX(id) FROM categories)`;
    const slugs = await generatedSlugs(c, body.translations, Object.keys(body.translations), byId);
    const statements: BatchItem<"sqlite">[] = [
      // The body carries `status` (its schema requires it), the one NOT NULL column.
      db.insert(categories).values({
        ...columnChanges(categoryResource, body),
        imageUrl: imageUrl ?? null,
        merchantCategories: body.merchant_categories ?? null,
      } as typeof categories.$inferInsert),
      ...translationStatements(db, categoryResource, justInsertedId, body.translations, (locale) =>
        body.translations[locale]?.slug !== undefined ? {} : { slug: slugs[locale] ?? byId },
      ),
      routeFeedEntry(db, "categories", justInsertedId),
      generationBump(db, ["categories"]),
      db.select({ id: categories.id }).from(categories).where(eq(categories.id, justInsertedId)),
    ];
    try {
      const results = await runCategoryWrite(c, body.translations, () =>
        db.batch(statements as [BatchItem<"sqlite">]),
      );
      return ((results[results.length - 1] as { id: number }[])[0] as { id: number }).id;
    } catch (err) {
      if (attempt < 3 && isSlugTaken(err)) continue;
      throw err;
    }
  }
}

export async function updateCategory(c: Context<AppEnv>, id: number, body: CategoryUpdate): Promise<void> {
  const db = c.get("db");
  const translations = body.translations ?? {};
  const locales = Object.keys(translations);
  const [rows, existingLocales] = await batch(c, [
    db.select({ imageUrl: categories.imageUrl }).from(categories).where(eq(categories.id, id)),
    db
      .select({ locale: categoryTranslations.locale })
      .from(categoryTranslations)
      .where(and(eq(categoryTranslations.categoryId, id), jsonIn(categoryTranslations.locale, locales))),
  ]);
  const current = rows[0];
  if (!current) throw notFound("Category");
  await assertEnabledLocales(c, locales);
  await assertParentExists(c, body.parent_id);
  const imageUrl = await resolveImageUrl(c, body.image_url, current.imageUrl);
  const known = new Set(existingLocales.map((r) => r.locale));
  const newLocales = locales.filter((l) => !known.has(l) && translations[l] !== null);

  for (let attempt = 0; ; attempt++) {
    const slugs = await generatedSlugs(c, translations, newLocales, `category-${id}`);
    const changes = {
      ...columnChanges(categoryResource, body),
      ...(imageUrl !== undefined ? { imageUrl } : {}),
      ...(body.merchant_categories !== undefined
        ? {
            merchantCategories: sql`json_patch(coalesce(${categories.merchantCategories}, '{}'), ${JSON.stringify(body.merchant_categories)})`,
          }
        : {}),
      updatedAt: isoSeconds(),
    };
    const newParent = body.parent_id;
    // The cycle check is part of the write itself: the UPDATE matches no row when the new parent
    // is the category or one of its descendants, and the guard then aborts the whole batch.
    const update = db
      .update(categories)
      .set(changes)
      .where(
        newParent
          ? and(
              eq(categories.id, id),
              sql`NOT EXISTS (WITH RECURSIVE ancestors(id) AS (SELECT ${newParent} UNION SELECT c.parent_id FROM ancestors CROSS JOIN categories c ON c.id = ancestors.id WHERE c.parent_id IS NOT NULL) SELECT 1 FROM ancestors WHERE ancestors.id = ${id})`,
            )
          : eq(categories.id, id),
      );
    const statements: BatchItem<"sqlite">[] = [
      // Before the move: the ancestors it leaves are still found.
      ...(newParent === undefined ? [] : categoryTreeBump(db, id, newParent)),
      update,
      ...(newParent
        ? [db.run(sql`INSERT INTO categories (id, status) SELECT NULL, NULL WHERE changes() = 0`)]
        : []),
      ...translationStatements(db, categoryResource, id, translations, (locale) =>
        newLocales.includes(locale) && translations[locale]?.slug === undefined
          ? { slug: slugs[locale] ?? `category-${id}` }
          : {},
      ),
      routeFeedEntry(db, "categories", id),
      generationBump(db, ["categories"]),
    ];
    try {
      await runCategoryWrite(c, translations, () => db.batch(statements as [BatchItem<"sqlite">]));
      return;
    } catch (err) {
      if (constraintViolation("NOT NULL", err, "categories") === "categories.status") {
        throw new ApiError(
          "conflict",
          `parent_id: category ${newParent} is this category or one of its descendants`,
          [{ location: "body", path: "parent_id", message: "would make the category its own ancestor" }],
        );
      }
      if (attempt < 3 && isSlugTaken(err)) continue;
      throw err;
    }
  }
}

/** Maps the UNIQUE violations a category write can cause to 409 entries naming the field. */
async function runCategoryWrite<T>(
  c: Context<AppEnv>,
  translations: TranslationsBody,
  write: () => Promise<T>,
) {
  try {
    return await runWrite(c, UNIQUE, write);
  } catch (err) {
    const supplied = slugConflict(translations);
    if (isSlugTaken(err) && supplied.length > 0) {
      const items = supplied.map(([, rule]) => ({
        location: "body" as const,
        ...(rule as { path: string; message: string }),
      }));
      throw new ApiError(
        "conflict",
        "A supplied slug is already used by another category in the same locale",
        items,
      );
    }
    throw err;
  }
}

const isSlugTaken = (err: unknown) =>
  constraintViolation("UNIQUE", err, "category_translations")?.includes("category_translations.slug") ??
  false;
