import { TRANSLATIONS } from "./load-plan.ts";
import type { AnyResource, Related, RenderContext } from "./resource.ts";
import type { Selection } from "./selection.ts";

/** A base row as selected for rendering: its columns with the key column aliased `id`. */
export type Row = Record<string, unknown> & { id: number };

/** One row in a selection's representation (root fields, then translations per request locale). */
export function renderOne(
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
