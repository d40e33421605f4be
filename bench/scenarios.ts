import { openDb } from "./lib/database.ts";

export interface Scenario {
  key: string;
  title: string;
  path: string;
  /** `read`: a measured read; `http-floor`: the trivial authenticated route; `reference`: shown, not a target. */
  kind: "read" | "http-floor" | "reference";
  expectStatus: number;
}

/**
 * The read scenarios, with ids picked from the seeded database so that every scale has
 * a meaningful target (a product with variants, the largest category tree, the fullest price list).
 */
export function scenarios(sqliteFile: string): Scenario[] {
  const db = openDb(sqliteFile, true);
  const one = <T>(sql: string) => db.prepare(sql).get() as T | undefined;
  try {
    const product = one<{ id: number }>(
      `SELECT p.id FROM products p WHERE p.product_structure = 'with-variants'
       ORDER BY abs(p.id - (SELECT max(id) / 2 FROM products)), p.id LIMIT 1`,
    );
    const root = one<{ id: number }>(
      `WITH RECURSIVE tree(root, id) AS (
         SELECT id, id FROM categories WHERE parent_id IS NULL
         UNION ALL SELECT tree.root, c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
       SELECT tree.root AS id, count(DISTINCT pc.product_id) AS n
       FROM tree JOIN product_categories pc ON pc.category_id = tree.id
       GROUP BY tree.root ORDER BY n DESC, tree.root LIMIT 1`,
    );
    const sku = one<{ sku: string }>(
      `SELECT sku FROM variants WHERE sku IS NOT NULL ORDER BY abs(id - (SELECT max(id) / 2 FROM variants)), id LIMIT 1`,
    );
    const priceList = one<{ id: number }>(
      `SELECT price_list_id AS id, count(*) AS n FROM price_list_variant_prices
       GROUP BY price_list_id ORDER BY n DESC, price_list_id LIMIT 1`,
    );
    return [
      {
        key: "products_page",
        title: "100 products, includes=variants,brand,categories,supplier, locales=ALL",
        path: "/api/v1/products?per_page=100&includes=variants,brand,categories,supplier&locales=ALL",
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "product_by_id",
        title: "1 product by id, includes=variants, 2 locales",
        path: `/api/v1/products/${product?.id ?? 1}?includes=variants&locales=es-ES,en-GB`,
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "category_tree",
        title: "products under a root category (descendants), sort=name_asc",
        path: `/api/v1/products?category_ids=${root?.id ?? 1}&sort=name_asc&per_page=100`,
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "orders_page",
        title: "100 orders, fields=line_items, includes=customer",
        path: "/api/v1/orders?per_page=100&fields=line_items&includes=customer",
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "price_list_prices",
        title: "500 price-list variant prices (per_page=500)",
        path: `/api/v1/price-lists/${priceList?.id ?? 1}/variant-prices?per_page=500`,
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "reviews_filtered",
        title: "reviews rating=4,5, sort=created_at_desc",
        path: "/api/v1/reviews?rating=4,5&sort=created_at_desc&per_page=100",
        kind: "read",
        expectStatus: 200,
      },
      {
        // Added after the first read scenarios: the integrator's lookup that once scanned every product.
        key: "product_by_sku",
        title: "integrator lookup: products by a variant SKU (any case), includes=variants",
        path: `/api/v1/products?sku=${encodeURIComponent((sku?.sku ?? "x").toLowerCase())}&includes=variants`,
        kind: "read",
        expectStatus: 200,
      },
      {
        key: "http_floor",
        title: "HTTP floor: authenticated route answered without D1 (400 on a malformed job id)",
        path: "/api/v1/jobs/not-a-job-id",
        kind: "http-floor",
        expectStatus: 400,
      },
      {
        key: "store",
        title: "reference: GET /api/v1/store (warm caches, 1 D1 round trip)",
        path: "/api/v1/store",
        kind: "reference",
        expectStatus: 200,
      },
    ];
  } finally {
    db.close();
  }
}
