import type { Context } from "hono";
import { countRowsRead, countTrip } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, type ProblemDetailItem } from "../http/problem.ts";
import { SUPPORTED_LOCALES } from "../lib/locales.ts";

export interface StoreSettings {
  primaryLocale: string;
  enabledLocales: string[];
  /** Store domain per locale, for resource `url` fields. */
  domains: Record<string, string | null>;
}

const TTL_MS = 30_000;
let cached: { settings: StoreSettings; expires: number } | undefined;

const DEFAULTS: StoreSettings = {
  primaryLocale: "es-ES",
  enabledLocales: [...SUPPORTED_LOCALES],
  domains: {},
};

/** The store's locale settings, cached per isolate for 30 s (they change only with the seed). */
export async function getStoreSettings(c: Context<AppEnv>): Promise<StoreSettings> {
  if (cached && cached.expires > Date.now()) return cached.settings;
  countTrip(c);
  return readStoreSettings(c.env.DB, (results) => countRowsRead(c, results));
}

/** The store's settings outside a request (a job's message), through the same per-isolate cache. */
export async function storeSettingsOf(d1: D1Database): Promise<StoreSettings> {
  if (cached && cached.expires > Date.now()) return cached.settings;
  return readStoreSettings(d1);
}

async function readStoreSettings(d1: D1Database, onRead?: (results: D1Result[]) => void) {
  const results = await d1.batch([
    d1.prepare("SELECT primary_locale, enabled_locales FROM store WHERE id = 1"),
    d1.prepare("SELECT locale, domain FROM store_translations"),
  ]);
  onRead?.(results);
  const [storeRows, translationRows] = results;
  const row = storeRows?.results[0] as { primary_locale: string; enabled_locales: string } | undefined;
  const settings: StoreSettings = row
    ? {
        primaryLocale: row.primary_locale,
        enabledLocales: JSON.parse(row.enabled_locales) as string[],
        domains: Object.fromEntries(
          ((translationRows?.results ?? []) as { locale: string; domain: string | null }[]).map((r) => [
            r.locale,
            r.domain,
          ]),
        ),
      }
    : DEFAULTS;
  cached = { settings, expires: Date.now() + TTL_MS };
  return settings;
}

/** `https://<store domain for that locale>/<slug>`, or null when either part is missing. */
export function localizedUrl(settings: StoreSettings, locale: string, slug: string | null | undefined) {
  const domain = settings.domains[locale];
  return domain && slug ? `https://${domain}/${slug}` : null;
}

/**
 * 400 `unsupported_locale` when a requested locale is not enabled for the store, with one error
 * entry per such locale (`entry` places it in the request: query parameter or body path).
 */
export function assertLocalesEnabled(
  store: StoreSettings,
  locales: readonly string[],
  entry: (locale: string) => ProblemDetailItem,
) {
  const disabled = locales.filter((l) => !store.enabledLocales.includes(l));
  if (disabled.length > 0) {
    throw new ApiError(
      "unsupported_locale",
      `Locale${disabled.length > 1 ? "s" : ""} not enabled for this store: ${disabled.join(", ")}`,
      disabled.map(entry),
    );
  }
}
