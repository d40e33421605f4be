import { z } from "@hono/zod-openapi";
import { intParam, listParam } from "../http/params.ts";
import { isSupportedLocale, SUPPORTED_LOCALES } from "../lib/locales.ts";
import type { AnyResource } from "./resource.ts";

export interface ConventionQuery {
  page?: number;
  per_page?: number;
  fields?: string[];
  includes?: string[];
  locales?: string[] | "ALL";
  sort?: string;
  [filter: string]: unknown;
}

const nameList = (allowed: string[], what: string, description: string) =>
  listParam(
    (raw) =>
      allowed.includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `is not a known ${what}; known: ${allowed.join(", ")}` },
    { itemType: "string", itemValues: allowed, max: allowed.length + 1, description },
  );

/** Names a client may put in `fields`: every field but the fixed ones, translated ones included. */
export function selectableFields(resource: AnyResource): string[] {
  const root = Object.entries(resource.fields)
    .filter(([, f]) => f.kind !== "fixed")
    .map(([name]) => name);
  const translated = Object.keys(resource.translations?.fields ?? {});
  return [...new Set([...root, ...translated])];
}

export const sortValues = (resource: AnyResource) =>
  Object.keys(resource.sorts).flatMap((key) => [`${key}_asc`, `${key}_desc`]);

export const localesParam = () =>
  listParam<string>(
    (raw) =>
      raw === "ALL" || isSupportedLocale(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `is not a supported locale (${SUPPORTED_LOCALES.join(", ")})` },
    {
      itemType: "string",
      max: SUPPORTED_LOCALES.length + 1,
      problemCode: "unsupported_locale",
      description:
        "Locales to return under `translations` (default: the store's primary locale); `ALL` returns every enabled locale.",
    },
  ).refine((values) => !(values.includes("ALL") && values.length > 1), {
    message: "ALL cannot be combined with other locales",
  });

/** The query schema of a resource's list (or, with `single`, its get): derived, never hand-written. */
export function conventionQuerySchema(resource: AnyResource, mode: "list" | "single") {
  const shape: Record<string, z.ZodType> = {};
  if (resource.selectable !== false) {
    shape.fields = nameList(
      selectableFields(resource),
      "field",
      "Fields to return besides the fixed ones (default: the default fields).",
    ).optional();
  }
  if (resource.includes) {
    shape.includes = nameList(
      Object.keys(resource.includes),
      "include",
      "Related objects to embed, each in its default representation.",
    ).optional();
  }
  if (resource.localized) shape.locales = localesParam().optional();
  if (mode === "list") {
    const per = resource.perPage ?? { default: 50, max: 100 };
    shape.page = intParam({ min: 1, description: "Page number, from 1." }).optional();
    shape.per_page = intParam({
      min: 1,
      max: per.max,
      description: `Page size (default ${per.default}, max ${per.max}).`,
    }).optional();
    const sorts = sortValues(resource);
    shape.sort = z
      .enum(sorts as [string, ...string[]], { message: `must be one of ${sorts.join(", ")}` })
      .optional()
      .openapi({ description: `Order of the list (default ${resource.defaultSort}).` });
    for (const [name, filter] of Object.entries(resource.filters ?? {})) {
      shape[name] = filter.required ? filter.schema : filter.schema.optional();
    }
  }
  return z.object(shape).strict().superRefine(rangesInOrder);
}

/** `<name>_from` no later than `<name>_to`. */
function rangesInOrder(query: Record<string, unknown>, ctx: z.RefinementCtx) {
  for (const key of Object.keys(query)) {
    const base = key.endsWith("_from") ? key.slice(0, -5) : undefined;
    const from = base ? query[key] : undefined;
    const to = base ? query[`${base}_to`] : undefined;
    if (typeof from === "string" && typeof to === "string" && from > to) {
      ctx.addIssue({ code: "custom", path: [key], message: `must not be later than ${base}_to` });
    }
  }
}

/**
 * A list's filters alone, each taking the value a query string gives it (`"1,2"`), checked as the
 * list checks them: what an export's `filters` object takes.
 */
export function filterSchema(resource: AnyResource) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, filter] of Object.entries(resource.filters ?? {})) shape[name] = filter.schema.optional();
  return z.object(shape).strict().superRefine(rangesInOrder);
}

/** The query schema of a write (POST/PATCH), which answers like a get: `fields` and `locales` only. */
export const writeQuerySchema = (resource: AnyResource) => conventionQuerySchema(resource, "single");
