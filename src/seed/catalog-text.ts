import type { Locale } from "../lib/locales.ts";
import vocabulary from "./catalog-text.json" with { type: "json" };

/**
 * The small multilingual vocabulary the product seed composes names from: product types, material
 * or use attributes (templates around the type, `{t}`), colours and one description sentence, in all
 * 14 supported locales. Attributes are prepositional phrases wherever the language allows, so they
 * never have to agree with the type's gender or number.
 */
export type Text = Readonly<Record<Locale, string>>;

export type AttributeKey =
  | "cotton"
  | "linen"
  | "rpet"
  | "wool"
  | "leather"
  | "suede"
  | "trail"
  | "asphalt"
  | "road"
  | "mtb"
  | "alu"
  | "carbon"
  | "p2"
  | "p4"
  | "steel"
  | "iron"
  | "ceramic";

// The vocabulary itself is data (catalog-text.json); these types say what it holds.
const ATTRIBUTES = vocabulary.attributes as Readonly<Record<AttributeKey, Text>>;

export type Family = "apparel" | "accessories" | "footwear" | "cycling" | "mountain" | "kitchen" | "decor";

export interface ProductType {
  /** SKU and model-code prefix. */
  code: string;
  family: Family;
  /** es-ES names of the demo category tree's leaves this type belongs in (categories.ts). */
  leaves: readonly string[];
  attributes: readonly AttributeKey[];
  /** Variant sizes (language-neutral); none means the variants differ by colour only. */
  sizes: readonly string[];
  /** Indexes into COLORS. */
  colors: readonly number[];
  /** List prices in EUR cents, ending in .95 or .00. */
  priceCents: { readonly low: number; readonly high: number };
  /** Noun as it reads inside a name (lowercase except German nouns); the first letter is capitalized later. */
  names: Text;
}

export const PRODUCT_TYPES = vocabulary.productTypes as readonly ProductType[];

/** Colour codes (for SKUs) and names. */
export const COLORS: readonly { code: string; names: Text }[] = vocabulary.colors;

/** Model-line names appended to product names (kept in Latin script in every locale, as shops do). */
export const LINES = [
  "Nova",
  "Terra",
  "Brisa",
  "Alba",
  "Sierra",
  "Costa",
  "Aura",
  "Luna",
  "Polar",
  "Delta",
  "Vento",
  "Atlas",
  "Orbit",
  "Zenit",
  "Lumen",
  "Coral",
  "Dune",
  "Echo",
  "Nimbus",
  "Sol",
] as const;

/** One product description sentence per locale (`{name}` is the product name). */
export const DESCRIPTION: Text = {
  "es-ES": "{name}: diseño cuidado, materiales duraderos y envío rápido.",
  "ca-ES": "{name}: disseny acurat, materials duradors i enviament ràpid.",
  "en-GB": "{name}: thoughtful design, durable materials and fast delivery.",
  "fr-FR": "{name} : un design soigné, des matériaux durables et une livraison rapide.",
  "it-IT": "{name}: design curato, materiali resistenti e spedizione rapida.",
  "pt-PT": "{name}: design cuidado, materiais duradouros e envio rápido.",
  "de-DE": "{name}: durchdachtes Design, langlebige Materialien und schneller Versand.",
  "ru-RU": "{name}: продуманный дизайн, прочные материалы и быстрая доставка.",
  "nl-NL": "{name}: doordacht ontwerp, duurzame materialen en snelle levering.",
  "sv-SE": "{name}: genomtänkt design, hållbara material och snabb leverans.",
  "da-DK": "{name}: gennemtænkt design, holdbare materialer og hurtig levering.",
  "pl-PL": "{name}: przemyślany projekt, trwałe materiały i szybka wysyłka.",
  "el-GR": "{name}: προσεγμένος σχεδιασμός, ανθεκτικά υλικά και γρήγορη αποστολή.",
  "hr-HR": "{name}: promišljen dizajn, izdržljivi materijali i brza dostava.",
};

/** "{type} {attribute}" in one locale, first letter capitalized (`Camiseta de algodón orgánico`). */
export function typeName(type: ProductType, attribute: AttributeKey, locale: Locale): string {
  const text = ATTRIBUTES[attribute][locale].replace("{t}", type.names[locale]);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
