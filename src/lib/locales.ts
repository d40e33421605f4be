export const SUPPORTED_LOCALES = [
  "es-ES",
  "ca-ES",
  "en-GB",
  "fr-FR",
  "it-IT",
  "pt-PT",
  "de-DE",
  "ru-RU",
  "nl-NL",
  "sv-SE",
  "da-DK",
  "pl-PL",
  "el-GR",
  "hr-HR",
] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const isSupportedLocale = (value: string): value is Locale =>
  (SUPPORTED_LOCALES as readonly string[]).includes(value);

export interface Market {
  key: string;
  currency: string;
  locales: Locale[];
  countries: string[];
}

/** Platform-defined pricing markets. */
export const MARKETS: readonly Market[] = [
  { key: "market_es", currency: "EUR", locales: ["es-ES", "ca-ES"], countries: ["ES"] },
  { key: "market_fr", currency: "EUR", locales: ["fr-FR"], countries: ["FR", "BE"] },
  { key: "market_de", currency: "EUR", locales: ["de-DE"], countries: ["DE", "AT"] },
  { key: "market_it", currency: "EUR", locales: ["it-IT"], countries: ["IT"] },
  {
    key: "market_en",
    currency: "GBP",
    locales: ["en-GB", "nl-NL", "sv-SE", "da-DK", "pl-PL", "el-GR", "hr-HR"],
    countries: ["GB", "CZ", "DK", "NL", "NO", "PL", "SE", "FI", "GR", "IE", "SK", "IL", "HR"],
  },
  { key: "market_pt", currency: "EUR", locales: ["pt-PT"], countries: ["PT"] },
  { key: "market_ru", currency: "RUB", locales: ["ru-RU"], countries: ["RU"] },
];

export const MARKET_KEYS = MARKETS.map((m) => m.key);
export const SHOP_CURRENCY = "EUR";

const marketOfLocale = (locale: string): Market | undefined =>
  MARKETS.find((m) => (m.locales as string[]).includes(locale));

export const marketByKey = (key: string): Market | undefined => MARKETS.find((m) => m.key === key);

/** Markets of the given locales, once each, in the order the locales name them. */
export function marketsOfLocales(locales: readonly string[]): string[] {
  const keys: string[] = [];
  for (const locale of locales) {
    const market = marketOfLocale(locale);
    if (market && !keys.includes(market.key)) keys.push(market.key);
  }
  return keys;
}
