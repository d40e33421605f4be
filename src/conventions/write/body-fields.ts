import { z } from "@hono/zod-openapi";
import { isSupportedLocale, SUPPORTED_LOCALES } from "../../lib/locales.ts";

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

/** A bulk record's `translations` keyed by locale: an unknown locale is the record's INVALID_FIELD_VALUE. */
export const bulkTranslations = <T extends z.ZodType>(entry: T) =>
  z.record(z.string(), entry.nullable()).superRefine((record, ctx) => {
    for (const locale of Object.keys(record)) {
      if (!isSupportedLocale(locale)) {
        ctx.addIssue({ code: "custom", path: [locale], message: "is not a supported locale" });
      }
    }
  });
