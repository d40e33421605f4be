import type { BatchItem } from "drizzle-orm/batch";
import { batchAll } from "../db/client.ts";
import { ApiError } from "../http/problem.ts";
import { type IdSet, idList } from "./id-set.ts";
import { planLoads } from "./load-plan.ts";
import { type Row, selectionRenderer } from "./render-row.ts";
import type { AnyResource, NestedRendered, RenderContext } from "./resource.ts";
import { defaultSelection, type Selection, selectionOf } from "./selection.ts";

/**
 * Rendering a page of rows: the related data its selection needs and its includes with their own
 * related data, planned to go in the page's own round trip; nested objects in one more.
 */
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
      render: selectionRenderer(child, childSelection),
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
                out = plan.render(child as Row, related, ctx);
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

      const render = selectionRenderer(resource, selection);
      return rows.map((row) => {
        const out = render(row, related, ctx);
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
    return { rows: unique, render: selectionRenderer(resource, selection), loads };
  });
  const queries = plans.flatMap((p) => (p.rows.length > 0 ? p.loads.queries : []));
  const results = await batchAll(ctx.c, queries);
  let offset = 0;
  return plans.map((p) => {
    if (p.rows.length === 0) return new Map<number, Record<string, unknown>>();
    const own = results.slice(offset, offset + p.loads.queries.length);
    offset += own.length;
    const related = p.loads.collect(own, {});
    return new Map(p.rows.map((row) => [row.id, p.render(row, related, ctx)]));
  });
}

function uniqueRows(rows: Row[]): Row[] {
  const seen = new Map<number, Row>();
  for (const r of rows) if (!seen.has(r.id)) seen.set(r.id, r);
  return [...seen.values()];
}
