import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { AppEnv, Db } from "../../env.ts";
import { ApiError } from "../../http/problem.ts";
import { getStoreSettings } from "../store-settings.ts";
import type { TranslationsInput } from "./body-fields.ts";

export interface TranslationTarget {
  table: SQLiteTable;
  /** Property names (drizzle keys) of the owner id and locale columns. */
  fkKey: string;
  fk: SQLiteColumn;
  locale: SQLiteColumn;
  /** API field name → drizzle property name. */
  columns: Record<string, string>;
}

/**
 * Statements merging `translations` into storage: per locale, only the fields sent change; a null
 * field clears it; a null locale deletes that locale's entry. `extra` adds computed columns for a
 * locale being created (generated slugs).
 */
export function translationStatements(
  db: Db,
  target: TranslationTarget,
  ownerId: number | SQL,
  translations: TranslationsInput,
  extra: (locale: string) => Record<string, unknown> = () => ({}),
): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  for (const [locale, entry] of Object.entries(translations)) {
    if (entry === null) {
      out.push(db.delete(target.table).where(and(eq(target.fk, ownerId), eq(target.locale, locale))));
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const [apiName, value] of Object.entries(entry)) {
      const column = target.columns[apiName];
      if (column && value !== undefined) values[column] = value;
    }
    const insert = db
      .insert(target.table)
      .values({ [target.fkKey]: ownerId, locale, ...values, ...extra(locale) } as never);
    out.push(
      Object.keys(values).length > 0
        ? insert.onConflictDoUpdate({ target: [target.fk, target.locale], set: values as never })
        : insert.onConflictDoNothing(),
    );
  }
  return out;
}

/** Locales of a write body must be enabled for the store (400 `unsupported_locale` otherwise). */
export async function assertEnabledLocales(
  c: Context<AppEnv>,
  locales: string[],
  pathPrefix = "translations",
) {
  const settings = await getStoreSettings(c);
  const disabled = locales.filter((l) => !settings.enabledLocales.includes(l));
  if (disabled.length > 0) {
    throw new ApiError(
      "unsupported_locale",
      `Locale${disabled.length > 1 ? "s" : ""} not enabled for this store: ${disabled.join(", ")}`,
      disabled.map((l) => ({
        location: "body" as const,
        path: `${pathPrefix}.${l}`,
        message: "is not enabled for this store",
      })),
    );
  }
}
