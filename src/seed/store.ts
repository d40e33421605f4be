import { type Locale, MARKETS, SUPPORTED_LOCALES } from "../lib/locales.ts";
import { seedTime } from "./clock.ts";
import { insertRows, json, type SeedStatement } from "./sql.ts";

const PRIMARY_LOCALE: Locale = "es-ES";

/** The demo store's public name and domain per locale (every supported locale is enabled). */
export const STORE_IDENTITY: Record<Locale, { name: string; domain: string }> = {
  "es-ES": { name: "Tienda Ejemplo", domain: "www.example-shop.es" },
  "ca-ES": { name: "Botiga Exemple", domain: "www.example-shop.cat" },
  "en-GB": { name: "Example Shop", domain: "www.example-shop.co.uk" },
  "fr-FR": { name: "Boutique Exemple", domain: "www.example-shop.fr" },
  "it-IT": { name: "Negozio Esempio", domain: "www.example-shop.it" },
  "pt-PT": { name: "Loja Exemplo", domain: "www.example-shop.pt" },
  "de-DE": { name: "Beispiel-Shop", domain: "www.example-shop.de" },
  "ru-RU": { name: "Магазин Пример", domain: "www.example-shop.ru" },
  "nl-NL": { name: "Voorbeeldwinkel", domain: "www.example-shop.nl" },
  "sv-SE": { name: "Exempelbutiken", domain: "www.example-shop.se" },
  "da-DK": { name: "Eksempelbutikken", domain: "www.example-shop.dk" },
  "pl-PL": { name: "Przykładowy Sklep", domain: "www.example-shop.pl" },
  "el-GR": { name: "Κατάστημα Παράδειγμα", domain: "www.example-shop.gr" },
  "hr-HR": { name: "Primjer Trgovine", domain: "www.example-shop.hr" },
};

/** Every country a market serves, once, in market order. */
const APPLICABLE_COUNTRIES = [...new Set(MARKETS.flatMap((m) => m.countries))];

/**
 * The single store row and its translations. The store is configuration the seed owns, so the
 * rows are replaced rather than added (a database that already has a store row still loads).
 */
export function storeStatements(): SeedStatement[] {
  return [
    { sql: "DELETE FROM store_translations", params: [] },
    { sql: "DELETE FROM store", params: [] },
    ...insertRows("store", [
      {
        id: 1,
        primary_locale: PRIMARY_LOCALE,
        enabled_locales: json(SUPPORTED_LOCALES),
        applicable_countries: json(APPLICABLE_COUNTRIES),
        return_policy_country: "ES",
        return_days: 30,
        return_method: "ReturnByMail",
        return_fees: "FreeReturn",
        refund_type: "FullRefund",
        return_label_source: "ReturnLabelDownloadAndPrint",
        item_condition: "NewCondition",
        updated_at: seedTime(0),
      },
    ]),
    ...insertRows(
      "store_translations",
      SUPPORTED_LOCALES.map((locale) => {
        const { name, domain } = STORE_IDENTITY[locale];
        const mailDomain = domain.replace(/^www\./, "");
        return {
          locale,
          name,
          domain,
          orders_email_account: `orders@${mailDomain}`,
          contact_email_account: `contact@${mailDomain}`,
          promotions_email_account: `promotions@${mailDomain}`,
        };
      }),
    ),
  ];
}
