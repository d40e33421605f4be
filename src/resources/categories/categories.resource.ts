import { eq, isNotNull, isNull } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import { defineResource } from "../../conventions/resource.ts";
import { hasRelated, jsonIn, slugInAnyLocale } from "../../conventions/sql.ts";
import { translatedColumn, translatedUrl } from "../../conventions/translated-column.ts";
import { categories, categoryTranslations } from "../../db/schema/index.ts";
import { boolParam, enumParam, intListParam, intParam, stringListParam } from "../../http/params.ts";
import { renderImageUrl } from "../../images/index.ts";
import { CATEGORY_STATUSES, CategorySchema } from "./categories.schema.ts";

type CategoryRow = typeof categories.$inferSelect;
type CategoryTranslationRow = typeof categoryTranslations.$inferSelect;

/** Categories: a tree by `parent_id`; name, slug and url are per locale. */
export const categoryResource = defineResource<{
  row: CategoryRow;
  translationRow: CategoryTranslationRow;
  item: typeof CategorySchema;
}>({
  name: "categories",
  label: "Category",
  path: "/categories",
  tag: "Categories",
  plural: "Categories",
  item: CategorySchema,
  table: categories,
  idColumn: categories.id,
  localized: true,
  fields: {
    id: column(categories.id, "fixed"),
    internal_id: column(categories.internalId, "default"),
    parent_id: column(categories.parentId),
    status: column(categories.status),
    image_url: { render: (r, _related, ctx) => renderImageUrl(ctx.c, r.imageUrl) },
    merchant_categories: { render: (r) => r.merchantCategories ?? {} },
  },
  translations: {
    table: categoryTranslations,
    fk: categoryTranslations.categoryId,
    localeColumn: categoryTranslations.locale,
    fields: {
      name: translatedColumn(categoryTranslations.name, "default"),
      url: translatedUrl(categoryTranslations.slug),
      slug: translatedColumn(categoryTranslations.slug),
      description: translatedColumn(categoryTranslations.description),
      body_html: translatedColumn(categoryTranslations.bodyHtml),
      long_name: translatedColumn(categoryTranslations.longName),
      meta_title: translatedColumn(categoryTranslations.metaTitle),
      meta_description: translatedColumn(categoryTranslations.metaDescription),
    },
  },
  filters: {
    category_ids: {
      schema: intListParam("Category ids (exact)."),
      where: (v: number[]) => jsonIn(categories.id, v),
    },
    internal_ids: {
      schema: stringListParam("Category internal ids (exact).", 200, 100),
      where: (v: string[]) => jsonIn(categories.internalId, v),
    },
    is_root_folder: {
      schema: boolParam("true: only top-level categories (no parent); false: only subcategories."),
      where: (v: boolean) => (v ? isNull(categories.parentId) : isNotNull(categories.parentId)),
    },
    parent_id: {
      schema: intParam({ min: 1, description: "Direct children of this category." }),
      where: (v: number) => eq(categories.parentId, v),
    },
    slug: {
      schema: stringListParam("Category slugs in any locale (exact).", 200, 100),
      where: (v: string[]) =>
        hasRelated(
          categories.id,
          categoryTranslations.categoryId,
          categoryTranslations,
          slugInAnyLocale(categoryTranslations.locale, categoryTranslations.slug, v),
        ),
    },
    status: {
      schema: enumParam(CATEGORY_STATUSES, "Publication status."),
      where: (v: string) => eq(categories.status, v as (typeof CATEGORY_STATUSES)[number]),
    },
  },
  sorts: { id: { column: categories.id }, name: { translated: categoryTranslations.name } },
  defaultSort: "id_asc",
});
