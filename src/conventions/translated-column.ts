import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TranslatedFieldDef } from "./resource.ts";
import { columnKey } from "./sql.ts";

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
