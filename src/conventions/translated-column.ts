import type { GetColumnData } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TranslatedFieldDef } from "./resource.ts";
import { columnKey } from "./sql.ts";
import { localizedUrl } from "./store-settings.ts";

/**
 * A translated field that is one column of the translation table: rendered as stored (null when the
 * locale has no row) and written from the translation entry's key of the field's name.
 */
export function translatedColumn<C extends SQLiteColumn>(
  column: C,
  kind?: TranslatedFieldDef<object, object>["kind"],
): TranslatedFieldDef<object, object, GetColumnData<C> | null> {
  const key = columnKey(column);
  return {
    ...(kind ? { kind } : {}),
    columns: [column],
    column,
    render: (tr) =>
      ((tr as Record<string, unknown> | undefined)?.[key] as GetColumnData<C> | undefined) ?? null,
  };
}

/** The per-locale storefront URL of a resource whose slug is a column of its translation table. */
export function translatedUrl(slugColumn: SQLiteColumn): TranslatedFieldDef<object, object, string | null> {
  const key = columnKey(slugColumn);
  return {
    kind: "default",
    columns: [slugColumn],
    render: (tr, locale, _row, ctx) =>
      localizedUrl(ctx.store, locale, (tr as Record<string, string | null> | undefined)?.[key]),
  };
}
