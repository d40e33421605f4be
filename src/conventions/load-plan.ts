import { and } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { keyedColumns, tableColumns } from "../db/keyed-columns.ts";
import type { IdSet } from "./id-set.ts";
import { type Row, TRANSLATIONS } from "./render-row.ts";
import type { AnyResource, NestedRendered, Related, RenderContext } from "./resource.ts";
import type { Selection } from "./selection.ts";
import { columnKey, keyIn } from "./sql.ts";

/** The queries one resource's selection needs for the rows `ids` names (translations, loaders). */
export function planLoads(
  ctx: RenderContext,
  resource: AnyResource,
  ids: IdSet,
  selection: Selection,
  allowNested: boolean,
) {
  const names = new Set(selection.fields.flatMap((f) => resource.fields[f]?.needs ?? []));
  const queries: BatchItem<"sqlite">[] = [];
  const order: string[] = [];
  const tr = resource.translations;
  const trColumns = tr ? translationColumns(tr, selection.translated) : null;
  if (tr && trColumns !== null && selection.translated.length > 0) {
    const where = and(ids.in(tr.fk), keyIn(tr.localeColumn, ctx.locales));
    queries.push(
      trColumns === "all"
        ? ctx.db.select(tableColumns(tr.table)).from(tr.table).where(where)
        : ctx.db.select(keyedColumns(trColumns)).from(tr.table).where(where),
    );
    order.push(TRANSLATIONS);
  }
  for (const name of names) {
    const loader = resource.loaders?.[name];
    if (!loader) throw new Error(`${resource.name}: unknown loader ${name}`);
    if (loader.nested && !allowNested)
      throw new Error(`${resource.name}: loader ${name} nests below a nested level`);
    queries.push(loader.query(ctx.db, ids, ctx));
    order.push(name);
  }
  return {
    queries,
    /** The rows each nested declaration finds in its loader's result, to render before `collect`. */
    nestedSets(results: unknown[]) {
      return order.flatMap((loaderName, i) =>
        Object.entries(resource.loaders?.[loaderName]?.nested ?? {}).map(([name, def]) => ({
          loader: loaderName,
          name,
          resource: def.resource(),
          rows: def.rows(results[i]) as Row[],
        })),
      );
    },
    collect(results: unknown[], nested: Record<string, NestedRendered>): Related {
      const related: Related = {};
      order.forEach((name, i) => {
        if (name === TRANSLATIONS && tr) {
          const fkKey = columnKey(tr.fk);
          const localeKey = columnKey(tr.localeColumn);
          const position = new Map(ctx.locales.map((locale, at) => [locale, at]));
          // Row id → its translation rows at the positions of their locales in `ctx.locales`.
          const map = new Map<number, unknown>();
          for (const r of results[i] as Record<string, unknown>[]) {
            const at = position.get(r[localeKey] as string);
            if (at === undefined) continue;
            const id = r[fkKey] as number;
            let byLocale = map.get(id) as unknown[] | undefined;
            if (!byLocale) {
              byLocale = new Array(ctx.locales.length);
              map.set(id, byLocale);
            }
            byLocale[at] = r;
          }
          related[TRANSLATIONS] = map;
        } else {
          related[name] = resource.loaders?.[name]?.collect(results[i], nested[name] ?? {}) ?? new Map();
        }
      });
      return related;
    },
  };
}

/**
 * The translation columns the selected translated fields read, keyed as drizzle keys them (with
 * the row's key and locale); "all" when a field does not say; null when none is needed.
 */
function translationColumns(
  tr: NonNullable<AnyResource["translations"]>,
  translated: string[],
): Record<string, SQLiteColumn> | "all" | null {
  const declared = translated.map((name) => tr.fields[name]?.columns);
  if (declared.some((columns) => columns === undefined)) return "all";
  const needed = new Set(declared.flat() as SQLiteColumn[]);
  if (needed.size === 0) return null;
  return Object.fromEntries([tr.fk, tr.localeColumn, ...needed].map((column) => [columnKey(column), column]));
}
