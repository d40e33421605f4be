import { seedTime } from "./clock.ts";
import { contactCount, orderCount, productCount, reviewCount, variantIdsOfProduct } from "./layout.ts";
import reviewTexts from "./review-texts.json" with { type: "json" };
import { rngFor } from "./rng.ts";
import { insertRows, type Row, type SeedStatement } from "./sql.ts";

type ReviewLocale = "es-ES" | "ca-ES" | "en-GB" | "fr-FR" | "de-DE" | "it-IT" | "pt-PT" | "nl-NL";
type Tone = "good" | "mixed" | "bad";

/** Review texts per locale, tone and type; the seed picks one to match the rating. */
const TEXTS: Record<ReviewLocale, Record<Tone, { product: string[]; store: string[] }>> = reviewTexts.texts;

/** Spanish first (the primary locale), then the store's other big markets. */
const LOCALE_WEIGHTS: ReviewLocale[] = [
  "es-ES",
  "es-ES",
  "es-ES",
  "es-ES",
  "en-GB",
  "en-GB",
  "fr-FR",
  "de-DE",
  "it-IT",
  "pt-PT",
  "ca-ES",
  "nl-NL",
];
const RATING_WEIGHTS = [5, 5, 5, 4, 4, 4, 3, 2, 1];
const FIRST_NAMES = [
  "Ana",
  "Luis",
  "Marta",
  "Jordi",
  "Emma",
  "Oliver",
  "Chloé",
  "Lukas",
  "Giulia",
  "João",
  "Sanne",
];
const LAST_NAMES = ["García", "Martín", "Puig", "Smith", "Dubois", "Müller", "Rossi", "Silva", "de Vries"];

/** Minutes after the seed epoch over which reviews spread (about six months, oldest first). */
const SPAN_MINUTES = 180 * 24 * 60;

const toneOf = (rating: number | null): Tone =>
  rating === null || rating >= 4 ? "good" : rating === 3 ? "mixed" : "bad";

const emailLocalPart = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".");

/**
 * `reviewCount(scale)` reviews, ids 1..n: every fourth one about the store, the rest about a
 * product (half of them about one of its variants); every fifth unpublished, every seventh without
 * a rating; some tied to an order (verified) and to a customer. Products, variants, orders and
 * contacts must be seeded before these statements run.
 */
export function reviewStatements(scale: number): SeedStatement[] {
  const rng = rngFor("reviews");
  const count = reviewCount(scale);
  const products = productCount(scale);
  const orders = orderCount(scale);
  const contacts = contactCount(scale);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const type = i % 4 === 3 ? "store" : "product";
    const productId = type === "product" ? rng.int(1, products) : null;
    const variantId = productId !== null && rng.chance(0.5) ? rng.pick(variantIdsOfProduct(productId)) : null;
    const rating = i % 7 === 6 ? null : rng.pick(RATING_WEIGHTS);
    const locale = rng.pick(LOCALE_WEIGHTS);
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    const customerId = rng.chance(0.5) ? rng.int(1, contacts) : null;
    const orderId = customerId !== null && rng.chance(0.6) ? rng.int(1, orders) : null;
    const created = seedTime(Math.floor((i * SPAN_MINUTES) / count) + rng.int(0, 59));
    rows.push({
      id: i + 1,
      type,
      locale,
      status: i % 5 === 4 ? "unpublished" : "published",
      rating,
      content: rng.pick(TEXTS[locale][toneOf(rating)][type]),
      reviewer_name: rng.chance(0.9) ? name : null,
      reviewer_email: `${emailLocalPart(name)}.${i + 1}@example.com`,
      order_id: orderId,
      customer_id: customerId,
      product_id: productId,
      variant_id: variantId,
      created_at: created,
      updated_at: created,
    });
  }
  return insertRows("reviews", rows);
}
