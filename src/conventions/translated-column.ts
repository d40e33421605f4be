import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TranslatedFieldDef } from "./resource.ts";
import { columnKey } from "./sql.ts";
import { localizedUrl } from "./store-settings.ts";

/** A translated field that is one column of the translation table, rendered as stored (null when absent). */
export function translatedColumn<Row, TrRow>(
  column: SQLiteColumn,
  kind?: TranslatedFieldDef<Row, TrRow>["kind"],
): TranslatedFieldDef<Row, TrRow> {
  const key = columnKey(column);
  return {
    ...(kind ? { kind } : {}),
    columns: [column],
    render: (tr) => ((tr as Record<string, unknown> | undefined)?.[key] as unknown) ?? null,
  };
}

/** The per-locale storefront URL of a resource whose slug is a column of its translation table. */
export function translatedUrl<Row, TrRow>(slugColumn: SQLiteColumn): TranslatedFieldDef<Row, TrRow> {
  const key = columnKey(slugColumn);
  return {
    kind: "default",
    columns: [slugColumn],
    render: (tr, locale, _row, ctx) =>
      localizedUrl(ctx.store, locale, (tr as Record<string, string | null> | undefined)?.[key]),
  };
}
