import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { AppEnv, Db } from "../../env.ts";
import type { AnyResource } from "../resource.ts";
import { columnKey } from "../sql.ts";
import { assertLocalesEnabled, getStoreSettings } from "../store-settings.ts";
import type { TranslationsInput } from "./body-fields.ts";

/**
 * Statements merging `translations` into the declaration's translation table: per locale, only the
 * fields sent change (the translated fields declared as plain columns); a null field clears it; a
 * null locale deletes that locale's entry. `extra` adds computed columns for a locale being created
 * (generated slugs).
 */
export function translationStatements(
  db: Db,
  resource: AnyResource,
  ownerId: number | SQL,
  translations: TranslationsInput,
  extra: (locale: string) => Record<string, unknown> = () => ({}),
): BatchItem<"sqlite">[] {
  const tr = translationsOf(resource);
  const out: BatchItem<"sqlite">[] = [];
  for (const [locale, entry] of Object.entries(translations)) {
    if (entry === null) {
      out.push(db.delete(tr.table).where(and(eq(tr.fk, ownerId), eq(tr.localeColumn, locale))));
      continue;
    }
    const values = translationChanges(resource, entry);
    const insert = db.insert(tr.table).values({
      [columnKey(tr.fk)]: ownerId,
      [columnKey(tr.localeColumn)]: locale,
      ...values,
      ...extra(locale),
    } as never);
    out.push(
      Object.keys(values).length > 0
        ? insert.onConflictDoUpdate({ target: [tr.fk, tr.localeColumn], set: values as never })
        : insert.onConflictDoNothing(),
    );
  }
  return out;
}

/**
 * The translation columns one entry sets: every field it carries that the declaration's
 * `translations` declares as a column (`translatedColumn(...)`), keyed by `key(column)` (the
 * column's property; bulk SQL keys by its SQL name). `null` clears; a field not sent is left out.
 */
export function translationChanges(
  resource: AnyResource,
  entry: object,
  key: (column: SQLiteColumn) => string = columnKey,
): Record<string, unknown> {
  const { fields } = translationsOf(resource);
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(entry)) {
    const column = fields[name]?.column;
    if (column && value !== undefined) changes[key(column)] = value;
  }
  return changes;
}

function translationsOf(resource: AnyResource) {
  if (!resource.translations) throw new Error(`${resource.name}: no translations to write`);
  return resource.translations;
}

/** Locales of a write body must be enabled for the store (400 `unsupported_locale` otherwise). */
export async function assertEnabledLocales(
  c: Context<AppEnv>,
  locales: string[],
  pathPrefix = "translations",
) {
  assertLocalesEnabled(await getStoreSettings(c), locales, (l) => ({
    location: "body",
    path: `${pathPrefix}.${l}`,
    message: "is not enabled for this store",
  }));
}
