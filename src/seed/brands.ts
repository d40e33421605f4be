import { seedTime } from "./clock.ts";
import demoBrands from "./demo-brands.json" with { type: "json" };
import { rngFor, syntheticWord } from "./rng.ts";
import { slugAllocator } from "./slugs.ts";
import { insertRows, json, type Row, type SeedStatement } from "./sql.ts";
import { STORE_IDENTITY } from "./store.ts";

type BrandLocale = "es-ES" | "en-GB" | "fr-FR" | "de-DE" | "it-IT" | "pt-PT";
/** Every brand is translated in the first four; every other brand also in the last two. */
const CORE_LOCALES: BrandLocale[] = ["es-ES", "en-GB", "fr-FR", "de-DE"];
const EXTRA_LOCALES: BrandLocale[] = ["it-IT", "pt-PT"];

const SPECIALTIES = {
  outdoor: {
    "es-ES": "equipamiento de montaña",
    "en-GB": "mountain equipment",
    "fr-FR": "de l'équipement de montagne",
    "de-DE": "Bergausrüstung",
    "it-IT": "attrezzatura da montagna",
    "pt-PT": "equipamento de montanha",
  },
  running: {
    "es-ES": "zapatillas de running",
    "en-GB": "running shoes",
    "fr-FR": "des chaussures de running",
    "de-DE": "Laufschuhe",
    "it-IT": "scarpe da running",
    "pt-PT": "sapatilhas de corrida",
  },
  textiles: {
    "es-ES": "textil para el hogar",
    "en-GB": "home textiles",
    "fr-FR": "du linge de maison",
    "de-DE": "Heimtextilien",
    "it-IT": "tessili per la casa",
    "pt-PT": "têxteis para o lar",
  },
  kitchen: {
    "es-ES": "menaje de cocina",
    "en-GB": "cookware",
    "fr-FR": "des ustensiles de cuisine",
    "de-DE": "Kochgeschirr",
    "it-IT": "pentole e utensili",
    "pt-PT": "utensílios de cozinha",
  },
  kids: {
    "es-ES": "ropa infantil",
    "en-GB": "children's clothing",
    "fr-FR": "des vêtements pour enfants",
    "de-DE": "Kinderkleidung",
    "it-IT": "abbigliamento per bambini",
    "pt-PT": "roupa de criança",
  },
  cycling: {
    "es-ES": "equipamiento de ciclismo",
    "en-GB": "cycling gear",
    "fr-FR": "de l'équipement de cyclisme",
    "de-DE": "Radsportausrüstung",
    "it-IT": "attrezzatura da ciclismo",
    "pt-PT": "equipamento de ciclismo",
  },
  eyewear: {
    "es-ES": "gafas de sol",
    "en-GB": "sunglasses",
    "fr-FR": "des lunettes de soleil",
    "de-DE": "Sonnenbrillen",
    "it-IT": "occhiali da sole",
    "pt-PT": "óculos de sol",
  },
  leather: {
    "es-ES": "marroquinería",
    "en-GB": "leather goods",
    "fr-FR": "de la maroquinerie",
    "de-DE": "Lederwaren",
    "it-IT": "pelletteria",
    "pt-PT": "marroquinaria",
  },
  swimwear: {
    "es-ES": "ropa de baño",
    "en-GB": "swimwear",
    "fr-FR": "des maillots de bain",
    "de-DE": "Bademode",
    "it-IT": "costumi da bagno",
    "pt-PT": "roupa de banho",
  },
} as const satisfies Record<string, Record<BrandLocale, string>>;
type Specialty = keyof typeof SPECIALTIES;
const SPECIALTY_KEYS = Object.keys(SPECIALTIES) as Specialty[];
/** Specialties whose products come in sizes: their brands get a size guide. */
const SIZED: ReadonlySet<Specialty> = new Set(["running", "kids", "swimwear", "outdoor"]);

const DESCRIPTION: Record<BrandLocale, (name: string, what: string, year: number) => string> = {
  "es-ES": (n, w, y) => `${n} diseña ${w} desde ${y}.`,
  "en-GB": (n, w, y) => `${n} has been designing ${w} since ${y}.`,
  "fr-FR": (n, w, y) => `${n} conçoit ${w} depuis ${y}.`,
  "de-DE": (n, w, y) => `${n} entwirft seit ${y} ${w}.`,
  "it-IT": (n, w, y) => `${n} progetta ${w} dal ${y}.`,
  "pt-PT": (n, w, y) => `${n} cria ${w} desde ${y}.`,
};
const SIZE_GUIDE: Record<BrandLocale, string> = {
  "es-ES": "Guía de tallas",
  "en-GB": "Size guide",
  "fr-FR": "Guide des tailles",
  "de-DE": "Größentabelle",
  "it-IT": "Guida alle taglie",
  "pt-PT": "Guia de tamanhos",
};

/** The demo's brands: diacritics, "&", Cyrillic and Greek names exercise slug generation. */
const DEMO_BRANDS = demoBrands.brands as { name: string; specialty: Specialty; internalId: string | null }[];
const NAME_SUFFIXES = ["Sport", "Home", "Outdoor", "Kids", "Studio", "Works", "& Co.", "Lab"];

/** 12 brands per unit of scale; ids 1..n. */
export const brandCount = (scale: number) => Math.max(1, Math.round(DEMO_BRANDS.length * scale));

export function brandStatements(scale: number): SeedStatement[] {
  const rng = rngFor("brands");
  const slugOf = slugAllocator();
  const brands: Row[] = [];
  const translations: Row[] = [];
  const count = brandCount(scale);
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const demo = DEMO_BRANDS[i];
    const name = demo?.name ?? `${syntheticWord(rng)} ${rng.pick(NAME_SUFFIXES)}`;
    const specialty = demo?.specialty ?? rng.pick(SPECIALTY_KEYS);
    const internalId = demo ? demo.internalId : i % 3 === 2 ? null : `BR-${String(id).padStart(5, "0")}`;
    const slug = slugOf(name, `brand-${id}`);
    const created = seedTime(i * 7);
    brands.push({
      id,
      internal_id: internalId,
      name,
      slug,
      delivery_time_in_stock: i % 5 === 4 ? null : rng.int(1, 3),
      delivery_time_out_of_stock: i % 5 === 4 ? null : rng.int(5, 15),
      image_url: null,
      created_at: created,
      updated_at: i % 4 === 1 ? seedTime(i * 7 + 60 * 24 * rng.int(1, 30)) : created,
    });
    const year = rng.int(1952, 2021);
    const locales = i % 2 === 0 ? [...CORE_LOCALES, ...EXTRA_LOCALES] : CORE_LOCALES;
    for (const locale of locales) {
      const what = SPECIALTIES[specialty][locale];
      const description = DESCRIPTION[locale](name, what, year);
      const domain = STORE_IDENTITY[locale].domain;
      translations.push({
        brand_id: id,
        locale,
        description,
        body_html: `<p>${escapeHtml(description)}</p>`,
        long_name: `${name} · ${what}`,
        meta_title: `${name} | ${STORE_IDENTITY[locale].name}`,
        meta_description: description,
        size_guide_file: SIZED.has(specialty)
          ? json({ name: SIZE_GUIDE[locale], url: `https://${domain}/size-guides/${slug}.pdf` })
          : null,
      });
    }
  }
  return [...insertRows("brands", brands), ...insertRows("brand_translations", translations)];
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
