import { z } from "@hono/zod-openapi";
import { isSupportedLocale } from "../conventions/locales.ts";
import { AMOUNT_PATTERN } from "../conventions/money.ts";
import type { RecordProblems } from "./record-errors.ts";

/**
 * Record-level validation of bulk payloads with zod: a missing required field is
 * MISSING_REQUIRED_FIELD, anything else wrong (types, formats, unknown fields) INVALID_FIELD_VALUE.
 * Paths use dots and numeric indices.
 */
export function validateRecord<T extends z.ZodType>(
  schema: T,
  data: unknown,
  problems: RecordProblems,
  prefix = "",
): z.output<T> | null {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const base = [prefix, ...issue.path.map(String)].filter((p) => p !== "").join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        problems.add("INVALID_FIELD_VALUE", base ? `${base}.${key}` : key, "unknown field");
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      problems.add("MISSING_REQUIRED_FIELD", base || null, "is required");
    } else {
      problems.add("INVALID_FIELD_VALUE", base || null, issue.message);
    }
  }
  return null;
}

export const nonEmpty = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

export const amountString = () =>
  z.string().regex(AMOUNT_PATTERN, "must be a decimal string with at most 12 integer digits and 2 decimals");

export const moneyInput = () => z.object({ amount: amountString(), currency: z.string().length(3) }).strict();

export const isoDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)")
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      "must be a valid date",
    );

/** `translations` keyed by locale: unknown locales are record-level INVALID_FIELD_VALUE here. */
export const bulkTranslations = <T extends z.ZodType>(entry: T) =>
  z.record(z.string(), entry.nullable()).superRefine((record, ctx) => {
    for (const locale of Object.keys(record)) {
      if (!isSupportedLocale(locale)) {
        ctx.addIssue({ code: "custom", path: [locale], message: "is not a supported locale" });
      }
    }
  });

export const positiveInt = () =>
  z.number().int("must be an integer").min(1, "must be >= 1").max(Number.MAX_SAFE_INTEGER);
export const nonNegativeInt = () =>
  z.number().int("must be an integer").min(0, "must be >= 0").max(1_000_000_000, "must be <= 1000000000");
