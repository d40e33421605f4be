import { z } from "@hono/zod-openapi";
import { isoSeconds } from "../lib/time.ts";

/**
 * Query parameter schemas. Every parameter arrives as the raw string sent; list parameters have
 * their repeats joined with "," before parsing, any other repeat is refused.
 */
const listSchemas = new WeakSet<z.ZodType>();

export const isListParam = (schema: z.ZodType) => listSchemas.has(schema);

const INT_RE = /^(0|[1-9][0-9]*)$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function parsePlainInt(raw: string): number | null {
  if (!INT_RE.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

/** A plain decimal integer within bounds. */
export function intParam(opts: { min?: number; max?: number; description?: string } = {}) {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = opts;
  return z
    .string()
    .transform((raw, ctx) => {
      const n = parsePlainInt(raw);
      if (n === null) {
        ctx.addIssue({ code: "custom", message: "must be a plain decimal integer" });
        return z.NEVER;
      }
      if (n < min) ctx.addIssue({ code: "custom", message: `must be >= ${min}` });
      if (n > max) ctx.addIssue({ code: "custom", message: `must be <= ${max}` });
      return n;
    })
    .openapi({ type: "integer", description: opts.description, minimum: opts.min, maximum: opts.max });
}

export function boolParam(description?: string) {
  return z
    .enum(["true", "false"], { message: "must be true or false" })
    .transform((v) => v === "true")
    .openapi({ type: "boolean", description });
}

export function enumParam<const T extends readonly [string, ...string[]]>(values: T, description?: string) {
  return z.enum(values, { message: `must be one of ${values.join(", ")}` }).openapi({ description });
}

/** One string value; a comma is refused since only list parameters take comma-joined values. */
export function stringParam(opts: { maxLength?: number; description?: string } = {}) {
  return z
    .string()
    .min(1, "must not be empty")
    .max(opts.maxLength ?? 255, `must be at most ${opts.maxLength ?? 255} characters`)
    .refine((v) => !v.includes(","), "takes a single value (no comma-separated list)")
    .openapi({ description: opts.description });
}

type ItemParser<T> = (raw: string) => { ok: true; value: T } | { ok: false; message: string };

/** A comma-separated list (repeats add values); empty items and more than `max` values are 400. */
export function listParam<T>(
  item: ItemParser<T>,
  opts: {
    max?: number;
    description?: string;
    itemType: "integer" | "string";
    /** The values an item may take: documented as an array of this enum, sent comma-joined. */
    itemValues?: readonly string[];
    example?: string;
    /** Problem code for a bad item when it is not `invalid_parameter` (locales). */
    problemCode?: "unsupported_locale";
  },
) {
  const max = opts.max ?? 200;
  const schema = z
    .string()
    .transform((raw, ctx) => {
      const parts = raw.split(",");
      if (parts.length > max) {
        ctx.addIssue({ code: "custom", message: `must have at most ${max} values` });
        return z.NEVER;
      }
      const values: T[] = [];
      for (const part of parts) {
        if (part === "") {
          ctx.addIssue({ code: "custom", message: "must not contain empty values" });
          return z.NEVER;
        }
        const parsed = item(part);
        if (!parsed.ok) {
          ctx.addIssue({
            code: "custom",
            message: `'${part.slice(0, 50)}' ${parsed.message}`,
            params: opts.problemCode ? { problemCode: opts.problemCode } : undefined,
          });
          return z.NEVER;
        }
        values.push(parsed.value);
      }
      return [...new Set(values)];
    })
    .openapi({
      description: `${opts.description ?? ""}${opts.description ? " " : ""}Comma-separated ${opts.itemType}s (repeat the parameter to add more), at most ${max}.`,
      ...(opts.itemValues
        ? {
            type: "array",
            items: { type: "string", enum: [...opts.itemValues] },
            maxItems: max,
            param: { style: "form", explode: false },
          }
        : { type: "string", example: opts.example }),
    });
  listSchemas.add(schema);
  return schema;
}

const intItem: ItemParser<number> = (raw) => {
  const n = parsePlainInt(raw);
  return n !== null && n >= 1 ? { ok: true, value: n } : { ok: false, message: "is not a positive integer" };
};

const stringItem =
  (maxLength = 255): ItemParser<string> =>
  (raw) =>
    raw.length <= maxLength
      ? { ok: true, value: raw }
      : { ok: false, message: `is longer than ${maxLength} characters` };

export const enumItem =
  <T extends string>(values: readonly T[]): ItemParser<T> =>
  (raw) =>
    (values as readonly string[]).includes(raw)
      ? { ok: true, value: raw as T }
      : { ok: false, message: `is not one of ${values.join(", ")}` };

export const intListParam = (description?: string, max?: number) =>
  listParam(intItem, { description, max, itemType: "integer", example: "1,2" });

export const stringListParam = (description?: string, max?: number, maxLength?: number) =>
  listParam(stringItem(maxLength), { description, max, itemType: "string" });

/** A list of values out of `values`; by default as many as there are. */
export const enumListParam = <T extends string>(
  values: readonly T[],
  description: string,
  max = values.length,
) => listParam(enumItem(values), { itemType: "string", itemValues: values, max, description });

/**
 * A date-time with `Z` or an offset, or a date-only value (start or end of that UTC day).
 * Returns the canonical `YYYY-MM-DDTHH:MM:SSZ` text used in storage, so comparisons are textual.
 */
export function dateBoundParam(bound: "from" | "to", description?: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      const iso = toBoundIso(raw, bound);
      if (iso === null) {
        ctx.addIssue({
          code: "custom",
          message: "must be an ISO 8601 date-time with Z or an offset, or a date",
        });
        return z.NEVER;
      }
      return iso;
    })
    .openapi({
      type: "string",
      description,
      example: bound === "from" ? "2026-01-01" : "2026-12-31T23:59:59Z",
    });
}

export function toBoundIso(raw: string, bound: "from" | "to"): string | null {
  if (DATE_RE.test(raw)) {
    const d = new Date(`${raw}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== raw) return null;
    return `${raw}T${bound === "from" ? "00:00:00" : "23:59:59"}Z`;
  }
  if (!DATE_TIME_RE.test(raw)) return null;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) return null;
  const month = Number(raw.slice(5, 7));
  const day = Number(raw.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const ms = d.getTime();
  // Storage has whole seconds: a `_to` bound with a fraction still includes its own second.
  const whole = bound === "from" ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  return isoSeconds(whole * 1000);
}
