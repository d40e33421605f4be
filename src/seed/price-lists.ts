import { brandCount } from "./brands.ts";
import { categoryCount } from "./categories.ts";
import { seedTime } from "./clock.ts";
import {
  contactCount,
  priceListCount,
  priceListVariantPriceCount,
  productCount,
  variantIdsOfProduct,
} from "./layout.ts";
import { type Rng, rngFor } from "./rng.ts";
import { insertTables, type SeedStatement, tableRows } from "./sql.ts";

interface DemoList {
  internalId: string;
  isActive: boolean;
  globalDiscount: string;
  minimumOrder: string | null;
}

const DEMO_LISTS: DemoList[] = [
  { internalId: "PL-WHOLESALE", isActive: true, globalDiscount: "5.00", minimumOrder: "150.00" },
  { internalId: "PL-VIP", isActive: true, globalDiscount: "10.00", minimumOrder: null },
  { internalId: "PL-STAFF-2025", isActive: false, globalDiscount: "15.00", minimumOrder: null },
];
const GLOBAL_DISCOUNTS = ["0.00", "2.50", "5.00", "7.50", "12.00", "-3.00"];
const RULE_DISCOUNTS = ["5.00", "8.50", "10.00", "12.50", "20.00", "-5.00"];
const MINIMUM_ORDERS = ["50.00", "100.00", "250.00", "500.00"];

/** `n` distinct ids from 1..max (fewer when max is smaller), in draw order. */
function distinctIds(rng: Rng, n: number, max: number): number[] {
  const out: number[] = [];
  while (out.length < Math.min(n, max)) {
    const id = rng.int(1, max);
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * `priceListCount(scale)` price lists (ids 1..n, `PL-…`) with global, category and brand discounts
 * on seeded categories and brands, some customers (contact ids 1..contactCount), and
 * `priceListVariantPriceCount(scale)` fixed EUR prices spread over the lists, on the variants of
 * products 1..productCount. Needs the catalog and contacts to be inserted first.
 */
export function priceListStatements(scale: number): SeedStatement[] {
  const rng = rngFor("price-lists");
  const rows = tableRows(
    "price_lists",
    "price_list_discounts",
    "price_list_discount_categories",
    "price_list_discount_brands",
    "price_list_customers",
    "price_list_variant_prices",
  );
  const listCount = priceListCount(scale);
  const categories = categoryCount(scale);
  const brands = brandCount(scale);

  for (let i = 0; i < listCount; i++) {
    const id = i + 1;
    const demo = DEMO_LISTS[i];
    const created = seedTime(2000 + i * 13);
    const minimum = demo ? demo.minimumOrder : rng.chance(0.4) ? rng.pick(MINIMUM_ORDERS) : null;
    rows.price_lists.push({
      id,
      internal_id: demo?.internalId ?? `PL-${String(id).padStart(4, "0")}`,
      is_active: (demo ? demo.isActive : rng.chance(0.8)) ? 1 : 0,
      global_discount: demo?.globalDiscount ?? rng.pick(GLOBAL_DISCOUNTS),
      minimum_order_amount: minimum,
      minimum_order_currency: minimum === null ? null : "EUR",
      created_at: created,
      updated_at: i % 3 === 1 ? seedTime(2000 + i * 13 + 60 * 24 * rng.int(1, 20)) : created,
    });
    // The first list has every kind of rule, so the demo always shows them.
    const rules: ("category" | "brand")[] = [
      ...Array<"category">(i === 0 ? 2 : rng.int(0, 3)).fill("category"),
      ...Array<"brand">(i === 0 ? 1 : rng.int(0, 2)).fill("brand"),
    ];
    const position = { category: 0, brand: 0 };
    for (const kind of rules) {
      const discountId = rows.price_list_discounts.length + 1;
      rows.price_list_discounts.push({
        id: discountId,
        price_list_id: id,
        kind,
        position: position[kind]++,
        discount: rng.pick(RULE_DISCOUNTS),
      });
      const targets = distinctIds(
        rng,
        rng.int(1, kind === "category" ? 3 : 2),
        kind === "category" ? categories : brands,
      );
      targets.forEach((target, p) => {
        if (kind === "category")
          rows.price_list_discount_categories.push({
            discount_id: discountId,
            category_id: target,
            position: p,
          });
        else rows.price_list_discount_brands.push({ discount_id: discountId, brand_id: target, position: p });
      });
    }
  }

  for (let contact = 1; contact <= contactCount(scale); contact++) {
    if (rng.chance(0.25))
      rows.price_list_customers.push({ price_list_id: rng.int(1, listCount), contact_id: contact });
  }

  // Fixed prices: list l takes every `step`-th variant from its own start, so no pair repeats.
  const variants = Array.from({ length: productCount(scale) }, (_, p) => variantIdsOfProduct(p + 1)).flat();
  const step = [7, 11, 13, 17, 19, 23, 1].find((s) => gcd(s, variants.length) === 1) ?? 1;
  const starts = Array.from({ length: listCount }, () => rng.int(0, variants.length - 1));
  const perList = new Array<number>(listCount).fill(0);
  const total = Math.min(priceListVariantPriceCount(scale), listCount * variants.length);
  for (let i = 0; i < total; i++) {
    const list = i % listCount;
    const n = perList[list] ?? 0;
    perList[list] = n + 1;
    const variantId = variants[((starts[list] ?? 0) + n * step) % variants.length] as number;
    const minQuantity = rng.chance(0.2) ? rng.pick([6, 12, 24]) : 1;
    const created = seedTime(3000 + i * 2);
    rows.price_list_variant_prices.push({
      price_list_id: list + 1,
      variant_id: variantId,
      amount: `${rng.int(2, 180)}.${String(rng.int(0, 99)).padStart(2, "0")}`,
      currency: "EUR",
      min_quantity: minQuantity,
      quantity_factor: minQuantity > 1 && rng.chance(0.5) ? minQuantity : 1,
      created_at: created,
      updated_at: created,
    });
  }

  return insertTables(rows);
}
