import { z } from "@hono/zod-openapi";
import { AMOUNT_PATTERN } from "../../lib/money.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../lib/slug.ts";

/*
 * The field rules of every write body, HTTP and bulk alike, with the length limits of
 * docs/api-rules.md: a field sent both ways is checked by the same rule, with the same message.
 */

export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
/** Trimmed, and not empty once trimmed. */
export const nonEmpty = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
export const nameText = () => nonEmpty(255);
export const internalIdText = () => nonEmpty(100);
export const metaText = () => text(1000);
export const longText = () => text(65_535);
export const slugText = () =>
  z
    .string()
    .max(SLUG_MAX_LENGTH, `must be at most ${SLUG_MAX_LENGTH} characters`)
    .regex(SLUG_PATTERN, "must match ^[-a-zA-Z0-9_]+$");
export const urlText = () => z.string().max(2048, "must be at most 2048 characters").url("must be a URL");

/** Stock levels and positions. */
export const nonNegativeInt = () =>
  z.number().int("must be an integer").min(0, "must be >= 0").max(1_000_000_000, "must be <= 1000000000");
/** Small counts such as delivery times in days. */
export const smallNonNegativeInt = () =>
  z.number().int("must be an integer").min(0, "must be >= 0").max(100_000);
export const positiveInt = () =>
  z.number().int("must be an integer").min(1, "must be >= 1").max(Number.MAX_SAFE_INTEGER);
/** A reference to another resource's row by id. */
export const positiveId = () => z.number().int("must be an integer").min(1, "must be a positive integer");

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
