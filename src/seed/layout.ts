/**
 * The id layout of the demo seed, the one place every seed module reads to reference rows of
 * another module (ids are explicit so the seed is deterministic). Counts scale linearly; scale 1 is
 * the demo, scale 500 the benchmark catalog (20,000 products, 60,000 variants, 20,000 contacts,
 * 50,000 orders, 10,000 reviews, 50 price lists with 20,000 fixed prices).
 */
const atLeast = (min: number, n: number) => Math.max(min, Math.round(n));

export const productCount = (scale: number) => atLeast(1, 40 * scale);
/** Every fifth product (ids 1, 6, 11, …) is `simple`; the others have 3 or 4 variants. */
export const isSimpleProduct = (productId: number) => productId % 5 === 1;
export const variantsPerProduct = (productId: number) =>
  isSimpleProduct(productId) ? 1 : 3 + (productId % 2);
/** Variant ids of a product: 4(p-1)+1 … 4(p-1)+k, so ids are stable whatever the scale. */
export const variantIdsOfProduct = (productId: number): number[] =>
  Array.from({ length: variantsPerProduct(productId) }, (_, i) => 4 * (productId - 1) + 1 + i);

export const contactCount = (scale: number) => atLeast(12, 40 * scale);
export const orderCount = (scale: number) => atLeast(24, 100 * scale);
export const reviewCount = (scale: number) => atLeast(16, 20 * scale);
export const priceListCount = (scale: number) => atLeast(3, 0.1 * scale);
export const priceListVariantPriceCount = (scale: number) => atLeast(30, 40 * scale);
