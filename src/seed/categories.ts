import categoryTree from "./category-tree.json" with { type: "json" };
import { seedTime } from "./clock.ts";
import { slugAllocator } from "./slugs.ts";
import { insertRows, json, type Row, type SeedStatement } from "./sql.ts";
import { STORE_IDENTITY } from "./store.ts";

const LOCALES = ["es-ES", "en-GB", "fr-FR", "de-DE", "it-IT", "ca-ES"] as const;
type CategoryLocale = (typeof LOCALES)[number];
/** One name per entry of LOCALES, in that order. */
type Names = readonly string[];

interface Node {
  names: Names;
  unpublished?: boolean;
  internal?: boolean;
  google?: string;
  children?: Node[];
}

/**
 * The demo tree: 27 categories, four levels deep (Moda > Calzado > Zapatillas > Running), two
 * "Accesorios" siblings whose generated slugs collide (the second becomes `accesorios-2`).
 */
const TREE = categoryTree.tree as Node[];

/** The tree in pre-order (every parent before its children), with parents as indexes. */
function flatten(nodes: Node[], parent: number | null, out: { node: Node; parent: number | null }[]) {
  for (const node of nodes) {
    const index = out.length;
    out.push({ node, parent });
    if (node.children) flatten(node.children, index, out);
  }
  return out;
}
const FLAT = flatten(TREE, null, []);

const DESCRIPTION: Record<CategoryLocale, (name: string) => string> = {
  "es-ES": (n) => `${n}: descubre nuestra selección y las novedades de la temporada.`,
  "en-GB": (n) => `${n}: discover our selection and this season's new arrivals.`,
  "fr-FR": (n) => `${n} : découvrez notre sélection et les nouveautés de la saison.`,
  "de-DE": (n) => `${n}: Entdecken Sie unsere Auswahl und die Neuheiten der Saison.`,
  "it-IT": (n) => `${n}: scopri la nostra selezione e le novità della stagione.`,
  "ca-ES": (n) => `${n}: descobreix la nostra selecció i les novetats de la temporada.`,
};

/** 27 categories per unit of scale: copies of the demo tree (names suffixed " 2", " 3", …). */
export const categoryCount = (scale: number) => Math.max(1, Math.round(FLAT.length * scale));

export function categoryStatements(scale: number): SeedStatement[] {
  const slugOf = new Map(LOCALES.map((locale) => [locale, slugAllocator()]));
  const categories: Row[] = [];
  const translations: Row[] = [];
  const count = categoryCount(scale);
  for (let i = 0; i < count; i++) {
    const copy = Math.floor(i / FLAT.length);
    const entry = FLAT[i % FLAT.length];
    if (!entry) throw new Error("unreachable");
    const { node, parent } = entry;
    const id = i + 1;
    const created = seedTime(30 + i * 3);
    categories.push({
      id,
      internal_id: node.internal ? `CAT-${String(id).padStart(5, "0")}` : null,
      parent_id: parent === null ? null : copy * FLAT.length + parent + 1,
      status: node.unpublished ? "unpublished" : "published",
      image_url: null,
      merchant_categories: node.google ? json({ google: { id: node.google } }) : null,
      created_at: created,
      updated_at: created,
    });
    LOCALES.forEach((locale, l) => {
      const base = node.names[l];
      if (base === undefined) throw new Error(`category ${node.names[0]} lacks its ${locale} name`);
      const name = copy === 0 ? base : `${base} ${copy + 1}`;
      const allocate = slugOf.get(locale);
      if (!allocate) throw new Error("unreachable");
      translations.push({
        category_id: id,
        locale,
        name,
        slug: allocate(name, `category-${id}`),
        description: DESCRIPTION[locale](name),
        body_html: null,
        long_name: null,
        meta_title: `${name} | ${STORE_IDENTITY[locale].name}`,
        meta_description: DESCRIPTION[locale](name),
      });
    });
  }
  return [...insertRows("categories", categories), ...insertRows("category_translations", translations)];
}
