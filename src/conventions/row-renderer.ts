import type { RenderContext, ResourceDef } from "./resource.ts";
import { defaultSelection } from "./selection.ts";

/** The context of a render outside any request: a field that reads anything of it fails loudly. */
const OUTSIDE_REQUEST = new Proxy<RenderContext>(Object.create(null), {
  get: () => {
    throw new Error("a field rendered outside a request reached for the request context");
  },
});

/**
 * Renders a resource's default representation, exactly as a `GET` of it shows it, from its row
 * alone and outside any request (a webhook payload's job). Only for a resource whose default fields
 * need no locales, translations or loaders and merge into no other field; any other throws here,
 * when the renderer is made.
 */
export function rowRenderer<Row extends { id: number | string }>(
  resource: ResourceDef<Row>,
): (row: Row) => Record<string, unknown> {
  const selection = defaultSelection(resource);
  const fields = selection.fields.flatMap((name) => {
    const field = resource.fields[name];
    return field ? [{ name, field }] : [];
  });
  const fromRowAlone =
    !resource.localized &&
    selection.translated.length === 0 &&
    fields.every(({ field }) => (field.needs ?? []).length === 0 && field.into === undefined);
  if (!fromRowAlone) throw new Error(`${resource.name}: its default representation needs more than the row`);
  return (row) =>
    Object.fromEntries(fields.map(({ name, field }) => [name, field.render(row, {}, OUTSIDE_REQUEST)]));
}
