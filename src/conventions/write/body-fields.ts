import { z } from "@hono/zod-openapi";
import { isSupportedLocale, SUPPORTED_LOCALES } from "../../lib/locales.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../lib/slug.ts";

/** Field schemas shared by write bodies, with the length limits of docs/api-rules.md. */
export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
export const nameText = () =>
  z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters");
export const internalIdText = () =>
  z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
export const metaText = () => text(1000);
export const longText = () => text(65_535);
export const slugText = () =>
  z
    .string()
    .max(SLUG_MAX_LENGTH, `must be at most ${SLUG_MAX_LENGTH} characters`)
    .regex(SLUG_PATTERN, "must match ^[-a-zA-Z0-9_]+$");
export const nonNegativeInt = () => z.number().int("must be an integer").min(0, "must be >= 0").max(100_000);
export const positiveId = () => z.number().int("must be an integer").min(1, "must be a positive integer");
export const urlText = () => z.string().max(2048, "must be at most 2048 characters").url("must be a URL");

/**
 * `translations` keyed by locale. Unknown locales are `unsupported_locale`; a `null` locale removes
 * that locale's entry and a `null` field clears it (PATCH); `translations: null` itself is refused.
 */
export function translationsSchema<T extends z.ZodRawShape>(fields: T, opts: { nullableLocales: boolean }) {
  const entry = z.object(fields).strict();
  const value = opts.nullableLocales ? entry.nullable() : entry;
  return z
    .record(z.string(), value)
    .superRefine((record, ctx) => {
      for (const locale of Object.keys(record)) {
        if (!isSupportedLocale(locale)) {
          ctx.addIssue({
            code: "custom",
            path: [locale],
            message: `is not a supported locale (${SUPPORTED_LOCALES.join(", ")})`,
            params: { problemCode: "unsupported_locale" },
          });
        }
      }
    })
    .openapi({ description: "Localized fields keyed by locale (for example `es-ES`)." });
}

export type TranslationsInput = Record<string, Record<string, unknown> | null>;
