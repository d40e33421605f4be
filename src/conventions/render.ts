import { and } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { batch } from "../db/client.ts";
import { ApiError } from "../http/problem.ts";
import { type IdSet, idList } from "./id-set.ts";
import type { ConventionQuery } from "./query-schema.ts";
import type { AnyResource, NestedRendered, Related, RenderContext } from "./resource.ts";
import { columnKey, jsonIn } from "./sql.ts";

/**
 * Rendering a page of rows: the related data its selection needs and its includes with their own
 * related data, planned to go in the page's own round trip; nested objects in one more.
 */
export type Row = Record<string, unknown> & { id: number };

/** The selection a request makes on one resource: root fields, translated fields, includes. */
export interface Selection {
  fields: string[];
  translated: string[];
  includes: string[];
}

export function selectionOf(
  resource: AnyResource,
  query: Pick<ConventionQuery, "fields" | "includes">,
): Selection {
  const trFields = resource.translations?.fields ?? {};
  const rootNames = Object.keys(resource.fields);
  const fixed = rootNames.filter((n) => resource.fields[n]?.kind === "fixed");
  if (query.fields) {
    return {
      fields: rootNames.filter((n) => fixed.includes(n) || query.fields?.includes(n)),
      translated: Object.keys(trFields).filter((n) => query.fields?.includes(n)),
      includes: query.includes ?? [],
    };
  }
  return {
    fields: rootNames.filter((n) => {
      const kind = resource.fields[n]?.kind;
      return kind === "fixed" || kind === "default";
    }),
    translated: Object.keys(trFields).filter((n) => trFields[n]?.kind === "default"),
    includes: query.includes ?? [],
  };
}

export const defaultSelection = (resource: AnyResource) => selectionOf(resource, {});

/** The queries a page needs besides its rows, and how to render the rows once they answered. */
export interface RenderPlan {
  queries: BatchItem<"sqlite">[];
  /** Renders `rows` from this plan's share of the batch results (same order as `queries`). */
  finish(rows: Row[], results: unknown[]): Promise<Record<string, unknown>[]>;
}

/**
 * Plans everything a selection needs for the rows `ids` names: their translations and loaders,
 * each include's rows, and what those included rows' default representation needs, all filtered
 * by `ids` (a list, or the page query itself) so they go in the same round trip as the rows.
 * Only objects a loader nests (a price list's discount targets) cost one more round trip.
 */
export function planRender(
  ctx: RenderContext,
  resource: AnyResource,
  ids: IdSet,
  selection: Selection,
): RenderPlan {
  const level1 = planLoads(ctx, resource, ids, selection, true);
  const includePlans = selection.includes.map((name) => {
    const def = resource.includes?.[name];
    if (!def) throw new ApiError("invalid_parameter", `Unknown include ${name}`);
    const child = def.resource();
    // An include may name its representation (`IncludeDef.fields`): fixed fields plus exactly those.
    const childSelection = def.fields ? selectionOf(child, { fields: def.fields }) : defaultSelection(child);
    return {
      name,
      def,
      child,
      childSelection,
      query: def.query(ctx.db, ids, ctx),
      loads: planLoads(ctx, child, def.childIds(ctx.db, ids), childSelection, false),
    };
  });
  const queries = [...level1.queries, ...includePlans.flatMap((p) => [p.query, ...p.loads.queries])];

  return {
    queries,
    async finish(rows, results) {
      if (rows.length === 0) return [];
      let offset = 0;
      const take = (n: number) => {
        offset += n;
        return results.slice(offset - n, offset);
      };
      const loadResults = take(level1.queries.length);

      const included = new Map<string, Map<number, Record<string, unknown>[]>>();
      for (const plan of includePlans) {
        const [result, ...childLoads] = take(1 + plan.loads.queries.length);
        const related = plan.loads.collect(childLoads, {});
        const rendered = new Map<number, Record<string, unknown>>();
        const byParent = new Map<number, Record<string, unknown>[]>();
        for (const [parentId, children] of plan.def.group(result, rows)) {
          byParent.set(
            parentId,
            children.map((child) => {
              const id = (child as Row).id;
              let out = rendered.get(id);
              if (!out) {
                out = renderOne(ctx, plan.child, child as Row, related, plan.childSelection);
                rendered.set(id, out);
              }
              return out;
            }),
          );
        }
        included.set(plan.name, byParent);
      }

      const nestedSets = level1.nestedSets(loadResults);
      const renderedNested = nestedSets.length > 0 ? await renderDefaults(ctx, nestedSets) : [];
      const nested: Record<string, NestedRendered> = {};
      nestedSets.forEach((set, i) => {
        const byName = nested[set.loader] ?? {};
        byName[set.name] = renderedNested[i] as Map<number, Record<string, unknown>>;
        nested[set.loader] = byName;
      });
      const related = level1.collect(loadResults, nested);

      return rows.map((row) => {
        const out = renderOne(ctx, resource, row, related, selection);
        for (const { name, def } of includePlans) {
          const children = included.get(name)?.get(row.id) ?? [];
          out[name] = def.kind === "one" ? (children[0] ?? null) : children;
        }
        return out;
      });
    },
  };
}

/**
 * Renders sets of other resources' rows in their default representation (request locales), loading
 * what they need in one round trip for all sets. Returns, per set, row id → rendered object.
 */
async function renderDefaults(ctx: RenderContext, sets: { resource: AnyResource; rows: Row[] }[]) {
  const plans = sets.map(({ resource, rows }) => {
    const unique = uniqueRows(rows);
    const selection = defaultSelection(resource);
    const loads = planLoads(ctx, resource, idList(unique.map((r) => r.id)), selection, false);
    return { resource, rows: unique, selection, loads };
  });
  const queries = plans.flatMap((p) => (p.rows.length > 0 ? p.loads.queries : []));
  const results = queries.length > 0 ? await batch(ctx.c, queries as unknown as [BatchItem<"sqlite">]) : [];
  let offset = 0;
  return plans.map((p) => {
    if (p.rows.length === 0) return new Map<number, Record<string, unknown>>();
    const own = results.slice(offset, offset + p.loads.queries.length);
    offset += own.length;
    const related = p.loads.collect(own, {});
    return new Map(p.rows.map((row) => [row.id, renderOne(ctx, p.resource, row, related, p.selection)]));
  });
}

const TRANSLATIONS = "__translations";

function planLoads(
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
    const where = and(ids.in(tr.fk), jsonIn(tr.localeColumn, ctx.locales));
    queries.push(
      trColumns === "all"
        ? ctx.db.select().from(tr.table).where(where)
        : ctx.db.select(trColumns).from(tr.table).where(where),
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
          const map = new Map<number, unknown>();
          for (const r of results[i] as Record<string, unknown>[]) {
            const id = r[fkKey] as number;
            let byLocale = map.get(id) as Record<string, unknown> | undefined;
            if (!byLocale) {
              byLocale = {};
              map.set(id, byLocale);
            }
            byLocale[r[localeKey] as string] = r;
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

function renderOne(
  ctx: RenderContext,
  resource: AnyResource,
  row: Row,
  related: Related,
  selection: Selection,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of selection.fields) {
    const field = resource.fields[name];
    if (!field) continue;
    const value = field.render(row, related, ctx);
    const key = field.into ?? name;
    if (field.into && out[key] && typeof out[key] === "object" && value && typeof value === "object") {
      out[key] = deepMerge(out[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else {
      out[key] = value;
    }
  }
  const tr = resource.translations;
  if (tr && selection.translated.length > 0) {
    const byLocale = (related[TRANSLATIONS]?.get(row.id) ?? {}) as Record<string, unknown>;
    const translations: Record<string, Record<string, unknown>> = {};
    for (const locale of ctx.locales) {
      const entry: Record<string, unknown> = {};
      for (const name of selection.translated) {
        entry[name] = tr.fields[name]?.render(byLocale[locale], locale, row, ctx) ?? null;
      }
      translations[locale] = entry;
    }
    out.translations = translations;
  }
  return out;
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && typeof prev === "object" && v && typeof v === "object"
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function uniqueRows(rows: Row[]): Row[] {
  const seen = new Map<number, Row>();
  for (const r of rows) if (!seen.has(r.id)) seen.set(r.id, r);
  return [...seen.values()];
}
