import { column } from "../../conventions/column-field.ts";
import { idsFilter, stringsFilter } from "../../conventions/filters.ts";
import { pageTextFields } from "../../conventions/page-texts.ts";
import { defineResource } from "../../conventions/resource.ts";
import { localizedUrl } from "../../conventions/store-settings.ts";
import { translatedColumn } from "../../conventions/translated-column.ts";
import { brands, brandTranslations } from "../../db/schema/index.ts";
import { renderImageUrl } from "../../images/index.ts";
import { BrandSchema } from "./brands.schema.ts";

type BrandRow = typeof brands.$inferSelect;
type BrandTranslationRow = typeof brandTranslations.$inferSelect;

/** Brand `name` is one root string, not translated; `url` is per locale from the store domain. */
export const brandResource = defineResource<{
  row: BrandRow;
  translationRow: BrandTranslationRow;
  item: typeof BrandSchema;
}>({
  name: "brands",
  label: "Brand",
  path: "/brands",
  tag: "Brands",
  plural: "Brands",
  item: BrandSchema,
  table: brands,
  idColumn: brands.id,
  localized: true,
  cache: ["brands"],
  fields: {
    id: column(brands.id, "fixed"),
    name: column(brands.name, "default"),
    internal_id: column(brands.internalId, "default"),
    slug: column(brands.slug),
    delivery_time_in_stock: column(brands.deliveryTimeInStock),
    delivery_time_out_of_stock: column(brands.deliveryTimeOutOfStock),
    image_url: { render: (r, _related, ctx) => renderImageUrl(ctx.c, r.imageUrl) },
  },
  translations: {
    table: brandTranslations,
    fk: brandTranslations.brandId,
    localeColumn: brandTranslations.locale,
    fields: {
      url: {
        kind: "default",
        columns: [],
        render: (_tr, locale, row, ctx) => localizedUrl(ctx.store, locale, row.slug),
      },
      ...pageTextFields(brandTranslations),
      size_guide_file: translatedColumn(brandTranslations.sizeGuideFile),
    },
  },
  filters: {
    brand_ids: idsFilter(brands.id, "Brand ids (exact)."),
    internal_ids: stringsFilter(brands.internalId, "Brand internal ids (exact)."),
    slug: stringsFilter(brands.slug, "Brand slugs (exact)."),
  },
  sorts: { id: { column: brands.id }, name: { column: brands.name } },
  defaultSort: "id_asc",
});
