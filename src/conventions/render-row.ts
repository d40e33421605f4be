import type { AnyResource, Related, RenderContext } from "./resource.ts";
import type { Selection } from "./selection.ts";
import { columnKey } from "./sql.ts";

/**
 * The key of a page's translations in `Related`: load-plan.ts collects them under it, the renderer
 * reads them from it.
 */
export const TRANSLATIONS = "__translations";

/** A base row as selected for rendering: its columns with the key column aliased `id`. */
export type Row = Record<string, unknown> & { id: number };

/** Renders one row in a selection's representation (root fields, then translations per request locale). */
export type RenderRow = (row: Row, related: Related, ctx: RenderContext) => Record<string, unknown>;

const NO_TRANSLATIONS: readonly unknown[] = Object.freeze([]);

const renderers = new WeakMap<AnyResource, Map<string, RenderRow>>();
const MAX_RENDERERS_PER_RESOURCE = 32;

/**
 * The renderer of one selection of a resource, resolved once (and kept for the isolate's next
 * requests): its fields in output order, a field that is a column (`column(...)`,
 * `translatedColumn(...)`, rendered as stored) read straight from the row instead of through its
 * `render`.
 */
export function selectionRenderer(resource: AnyResource, selection: Selection): RenderRow {
  let byKey = renderers.get(resource);
  if (!byKey) {
    byKey = new Map();
    renderers.set(resource, byKey);
  }
  const key = `${selection.fields.join(",")}|${selection.translated.join(",")}`;
  let render = byKey.get(key);
  if (!render) {
    render = compileRenderer(resource, selection);
    // `fields=` subsets are many: a bounded cache, so varied requests cannot grow the isolate's heap.
    if (byKey.size >= MAX_RENDERERS_PER_RESOURCE) byKey.clear();
    byKey.set(key, render);
  }
  return render;
}

function compileRenderer(resource: AnyResource, selection: Selection): RenderRow {
  const fields = selection.fields.flatMap((name) => {
    const field = resource.fields[name];
    if (!field) return [];
    const read = field.column && !field.into ? columnKey(field.column) : undefined;
    return [{ key: field.into ?? name, merges: field.into !== undefined, read, render: field.render }];
  });
  const tr = resource.translations;
  const translated =
    tr && selection.translated.length > 0
      ? selection.translated.map((name) => {
          const field = tr.fields[name];
          return { name, read: field?.column ? columnKey(field.column) : undefined, render: field?.render };
        })
      : null;

  return (row, related, ctx) => {
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      if (field.read !== undefined) {
        out[field.key] = row[field.read];
        continue;
      }
      const value = field.render(row, related, ctx);
      const prev = out[field.key];
      out[field.key] =
        field.merges && prev && typeof prev === "object" && value && typeof value === "object"
          ? deepMerge(prev as Record<string, unknown>, value as Record<string, unknown>)
          : value;
    }
    if (translated) {
      const byLocale = (related[TRANSLATIONS]?.get(row.id) ?? NO_TRANSLATIONS) as readonly unknown[];
      const translations: Record<string, Record<string, unknown>> = {};
      for (let at = 0; at < ctx.locales.length; at++) {
        const locale = ctx.locales[at] as string;
        const trRow = byLocale[at] as Record<string, unknown> | undefined;
        const entry: Record<string, unknown> = {};
        for (const field of translated) {
          entry[field.name] =
            field.read !== undefined
              ? (trRow?.[field.read] ?? null)
              : (field.render?.(trRow, locale, row, ctx) ?? null);
        }
        translations[locale] = entry;
      }
      out.translations = translations;
    }
    return out;
  };
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
