import { isNotNull, isNull } from "drizzle-orm";
import { column } from "../../conventions/column-field.ts";
import {
  enumFilter,
  filter,
  idFilter,
  idsFilter,
  stringsFilter,
  translatedSlugFilter,
} from "../../conventions/filters.ts";
import { pageTextFields } from "../../conventions/page-texts.ts";
import { defineResource } from "../../conventions/resource.ts";
import { translatedColumn, translatedUrl } from "../../conventions/translated-column.ts";
import { categories, categoryTranslations, PUBLICATION_STATUSES } from "../../db/schema/index.ts";
import { boolParam } from "../../http/params.ts";
import { renderImageUrl } from "../../images/index.ts";
import { CategorySchema } from "./categories.schema.ts";

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
  cache: ["categories"],
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
      ...pageTextFields(categoryTranslations),
    },
  },
  filters: {
    category_ids: idsFilter(categories.id, "Category ids (exact)."),
    internal_ids: stringsFilter(categories.internalId, "Category internal ids (exact)."),
    is_root_folder: filter(
      boolParam("true: only top-level categories (no parent); false: only subcategories."),
      (v) => (v ? isNull(categories.parentId) : isNotNull(categories.parentId)),
    ),
    parent_id: idFilter(categories.parentId, "Direct children of this category."),
    slug: translatedSlugFilter(
      categories.id,
      {
        fk: categoryTranslations.categoryId,
        locale: categoryTranslations.locale,
        slug: categoryTranslations.slug,
      },
      "Category slugs in any locale (exact).",
    ),
    status: enumFilter(categories.status, PUBLICATION_STATUSES, "Publication status."),
  },
  sorts: { id: { column: categories.id }, name: { translated: categoryTranslations.name } },
  defaultSort: "id_asc",
});
