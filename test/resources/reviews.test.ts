import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  contactCount,
  orderCount,
  productCount,
  reviewCount,
  variantIdsOfProduct,
} from "../../src/seed/layout.ts";
import { reviewStatements } from "../../src/seed/reviews.ts";
import { ids } from "../support/answers.ts";
import { api } from "../support/api.ts";
import { createProduct } from "../support/factories/catalog.ts";
import { unique } from "../support/unique.ts";

const paths = (res: { json: { errors: { path: string }[] } }) => res.json.errors.map((e) => e.path).sort();

/** List fixtures live in 2020; every review the write tests create is dated later. */
const WINDOW = "created_at_from=2020-01-01&created_at_to=2020-12-31";
const list = (query = "") => api(`/api/v1/reviews?${WINDOW}${query ? `&${query}` : ""}`);

let p1: { id: number; variantIds: number[] };
let p2: { id: number; variantIds: number[] };
let contactId: number;
let orderId: number;

async function insertContactAndOrder() {
  const email = `${unique("reviewer")}@example.com`;
  const contact = await env.DB.prepare("INSERT INTO contacts (email) VALUES (?) RETURNING id")
    .bind(email)
    .first<{ id: number }>();
  const order = await env.DB.prepare(
    `INSERT INTO orders (contact_id, email, locale, payment_status, warehouse_release_status, fulfillment_status,
       delivery_method, currency, total_gross, total_net, total_tax, shipping_gross, shipping_net, shipping_tax,
       fees_gross, fees_net, fees_tax)
     VALUES (?, ?, 'es-ES', 'paid', 'released', 'fulfilled', 'shipment', 'EUR', '10.00', '8.26', '1.74',
       '0.00', '0.00', '0.00', '0.00', '0.00', '0.00') RETURNING id`,
  )
    .bind(contact?.id, email)
    .first<{ id: number }>();
  return { contactId: contact?.id as number, orderId: order?.id as number };
}

beforeAll(async () => {
  p1 = await createProduct({ variants: [{}, {}] });
  p2 = await createProduct();
  ({ contactId, orderId } = await insertContactAndOrder());
  const rows: [number, string, number | null, number | null, string, string, number | null, string][] = [
    // id, type, product, variant, status, locale, rating, created_at
    [9001, "product", p1.id, p1.variantIds[0] as number, "published", "es-ES", 5, "2020-03-01T10:00:00Z"],
    [9002, "store", null, null, "unpublished", "en-GB", 3, "2020-03-02T10:00:00Z"],
    [9003, "product", p2.id, null, "published", "es-ES", null, "2020-03-03T10:00:00Z"],
    [9004, "product", p1.id, null, "published", "fr-FR", 1, "2020-03-03T10:00:00Z"],
    [9005, "store", null, null, "published", "es-ES", 5, "2020-03-05T23:59:59Z"],
    [9006, "product", p1.id, null, "unpublished", "de-DE", 3, "2020-06-01T00:00:00Z"],
  ];
  await env.DB.batch(
    rows.map(([id, type, productId, variantId, status, locale, rating, createdAt]) =>
      env.DB.prepare(
        `INSERT INTO reviews (id, type, product_id, variant_id, status, locale, rating, created_at, content, reviewer_email)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id,
        type,
        productId,
        variantId,
        status,
        locale,
        rating,
        createdAt,
        `Review ${id}`,
        `r${id}@example.com`,
      ),
    ),
  );
});

const productReview = (overrides: Record<string, unknown> = {}) => ({
  locale: "es-ES",
  content: "Muy cómoda.",
  reviewer_email: "ana@example.com",
  type: "product",
  product_id: p1.id,
  ...overrides,
});

async function createReview(overrides: Record<string, unknown> = {}, query = "") {
  const res = await api(`/api/v1/reviews${query}`, { method: "POST", body: productReview(overrides) });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as Record<string, unknown> & { id: number };
}

describe("review list", () => {
  it("returns the fixed and default fields: id, locale, status, rating, created_at, type", async () => {
    const res = await list("per_page=1");
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toEqual({
      id: 9006,
      locale: "de-DE",
      status: "unpublished",
      rating: 3,
      created_at: "2020-06-01T00:00:00Z",
      type: "product",
    });
  });

  it("sorts by created_at_desc by default, ties by id descending", async () => {
    expect(ids(await list())).toEqual([9006, 9005, 9004, 9003, 9002, 9001]);
  });

  it("sorts by created_at_asc, ties by id ascending", async () => {
    expect(ids(await list("sort=created_at_asc"))).toEqual([9001, 9002, 9003, 9004, 9005, 9006]);
  });

  it("sorts by rating_desc, ties by id descending, unrated last", async () => {
    expect(ids(await list("sort=rating_desc"))).toEqual([9005, 9001, 9006, 9002, 9004, 9003]);
  });

  it("sorts by rating_asc, ties by id ascending, unrated last", async () => {
    expect(ids(await list("sort=rating_asc"))).toEqual([9004, 9002, 9006, 9001, 9005, 9003]);
  });

  it("sorts by id_asc and id_desc", async () => {
    expect(ids(await list("sort=id_asc"))).toEqual([9001, 9002, 9003, 9004, 9005, 9006]);
    expect(ids(await list("sort=id_desc"))).toEqual([9006, 9005, 9004, 9003, 9002, 9001]);
  });

  it("refuses a sort the reviews list does not offer", async () => {
    const res = await list("sort=name_asc");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("filters created_at inclusively, a date-only _to meaning the end of that day", async () => {
    const res = await api("/api/v1/reviews?created_at_from=2020-03-03&created_at_to=2020-03-05");
    expect(ids(res)).toEqual([9005, 9004, 9003]);
  });

  it("filters created_at with date-times carrying an offset", async () => {
    const res = await api(
      `/api/v1/reviews?created_at_from=${encodeURIComponent("2020-03-03T11:00:00+01:00")}&created_at_to=2020-03-03T10:00:00Z`,
    );
    expect(ids(res)).toEqual([9004, 9003]);
  });

  it("refuses created_at_from later than created_at_to and malformed date-times", async () => {
    for (const q of [
      "created_at_from=2020-05-01&created_at_to=2020-04-01",
      "created_at_from=2020-03-03T10:00:00",
    ]) {
      const res = await api(`/api/v1/reviews?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("invalid_parameter");
      expect(res.json.errors[0].path, q).toBe("created_at_from");
    }
  });

  it("filters by locale", async () => {
    expect(ids(await list("locale=es-ES"))).toEqual([9005, 9003, 9001]);
  });

  it("refuses a locale filter outside the supported list with unsupported_locale", async () => {
    const res = await list("locale=xx-XX");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unsupported_locale");
    expect(res.json.errors[0]).toMatchObject({ location: "query", path: "locale" });
  });

  it("takes a single locale in the locale filter", async () => {
    const res = await list("locale=es-ES,fr-FR");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("filters by product_id", async () => {
    expect(ids(await list(`product_id=${p1.id}`))).toEqual([9006, 9004, 9001]);
  });

  it("refuses a product_id that is not a positive integer", async () => {
    for (const q of ["product_id=0", "product_id=abc", "product_id=1,2"]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("invalid_parameter");
    }
  });

  it("filters by a list of ratings, comma-separated or repeated", async () => {
    expect(ids(await list("rating=5,3"))).toEqual([9006, 9005, 9002, 9001]);
    expect(ids(await list("rating=5&rating=1"))).toEqual([9005, 9004, 9001]);
  });

  it("refuses a rating outside 1..5", async () => {
    for (const q of ["rating=0", "rating=6", "rating=4,6", "rating=4.5"]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("invalid_parameter");
      expect(res.json.errors[0].path, q).toBe("rating");
    }
  });

  it("filters by status", async () => {
    expect(ids(await list("status=unpublished"))).toEqual([9006, 9002]);
    expect((await list("status=draft")).status).toBe(400);
  });

  it("filters by type, both types when absent", async () => {
    expect(ids(await list("type=store"))).toEqual([9005, 9002]);
    expect(ids(await list("type=product"))).toEqual([9006, 9004, 9003, 9001]);
    const res = await list("type=null");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_parameter");
  });

  it("combines filters with AND", async () => {
    expect(ids(await list(`type=product&status=published&product_id=${p1.id}`))).toEqual([9004, 9001]);
  });

  it("refuses locales and includes as unknown parameters", async () => {
    for (const q of ["locales=es-ES", "includes=product"]) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.json.code, q).toBe("unknown_parameter");
    }
  });
});

describe("review get", () => {
  it("returns exactly the fields listed in fields besides id", async () => {
    const res = await api(
      "/api/v1/reviews/9001?fields=content,reviewer_name,reviewer_email,order_id,customer_id,product_id,variant_id",
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: 9001,
      content: "Review 9001",
      reviewer_name: null,
      reviewer_email: "r9001@example.com",
      order_id: null,
      customer_id: null,
      product_id: p1.id,
      variant_id: p1.variantIds[0],
    });
  });

  it("answers 404 not_found for an unknown id", async () => {
    const res = await api("/api/v1/reviews/99999999");
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("not_found");
  });

  it("refuses locales with unknown_parameter", async () => {
    const res = await api("/api/v1/reviews/9001?locales=es-ES");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unknown_parameter");
  });
});

describe("review create", () => {
  it("answers 201 with Location and defaults status unpublished, rating null, created_at now", async () => {
    const before = new Date(Date.now() - 2000).toISOString();
    const res = await api("/api/v1/reviews", { method: "POST", body: productReview() });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`https://api.test/api/v1/reviews/${res.json.id}`);
    expect(Object.keys(res.json).sort()).toEqual(["created_at", "id", "locale", "rating", "status", "type"]);
    expect(res.json).toMatchObject({ locale: "es-ES", status: "unpublished", rating: null, type: "product" });
    expect(res.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(res.json.created_at >= before.replace(/\.\d{3}Z$/, "Z")).toBe(true);
  });

  it("stores every field sent, created_at as whole-second UTC", async () => {
    const review = await createReview(
      {
        status: "published",
        rating: 4,
        created_at: "2026-02-01T12:30:45.678+02:00",
        reviewer_name: "Ana",
        order_id: orderId,
        customer_id: contactId,
        variant_id: p1.variantIds[1],
      },
      "?fields=status,rating,created_at,content,reviewer_name,reviewer_email,order_id,customer_id,product_id,variant_id",
    );
    expect(review).toEqual({
      id: review.id,
      status: "published",
      rating: 4,
      created_at: "2026-02-01T10:30:45Z",
      content: "Muy cómoda.",
      reviewer_name: "Ana",
      reviewer_email: "ana@example.com",
      order_id: orderId,
      customer_id: contactId,
      product_id: p1.id,
      variant_id: p1.variantIds[1],
    });
  });

  it("creates a store review without product or variant", async () => {
    const review = await createReview({ type: "store", product_id: undefined, locale: "en-GB" });
    expect(review).toMatchObject({ type: "store", locale: "en-GB" });
  });

  it("requires locale, content, reviewer_email and type", async () => {
    const res = await api("/api/v1/reviews", { method: "POST", body: {} });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["content", "locale", "reviewer_email", "type"]);
  });

  it("refuses a rating of 0, of 6 and a fractional rating", async () => {
    for (const rating of [0, 6, 4.5, "5"]) {
      const res = await api("/api/v1/reviews", { method: "POST", body: productReview({ rating }) });
      expect(res.status, String(rating)).toBe(400);
      expect(res.json.code).toBe("invalid_body");
      expect(paths(res)).toEqual(["rating"]);
    }
  });

  it("refuses a reviewer_email that is not an e-mail address", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({ reviewer_email: "not-an-email" }),
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["reviewer_email"]);
  });

  it("refuses an unsupported locale with unsupported_locale", async () => {
    const res = await api("/api/v1/reviews", { method: "POST", body: productReview({ locale: "xx-XX" }) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unsupported_locale");
    expect(res.json.errors).toEqual([{ location: "body", path: "locale", message: expect.any(String) }]);
  });

  it("accepts content of 10,000 characters and refuses longer", async () => {
    await createReview({ content: "a".repeat(10_000) });
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({ content: "a".repeat(10_001) }),
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["content"]);
  });

  it("refuses a created_at without Z or offset", async () => {
    for (const created_at of ["2026-02-01T10:00:00", "2026-02-01", "yesterday"]) {
      const res = await api("/api/v1/reviews", { method: "POST", body: productReview({ created_at }) });
      expect(res.status, created_at).toBe(400);
      expect(paths(res)).toEqual(["created_at"]);
    }
  });

  it("requires product_id on a product review", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({ product_id: undefined }),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["product_id"]);
  });

  it("refuses product_id and variant_id on a store review", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({ type: "store", variant_id: p1.variantIds[0] }),
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["product_id", "variant_id"]);
  });

  it("refuses a variant_id of another product", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({ product_id: p2.id, variant_id: p1.variantIds[0] }),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["variant_id"]);
  });

  it("refuses unknown references with one entry per reference", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: productReview({
        order_id: 99_999_991,
        customer_id: 99_999_992,
        product_id: 99_999_993,
        variant_id: 99_999_994,
      }),
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["customer_id", "order_id", "product_id", "variant_id"]);
    expect(res.json.errors.every((e: { location: string }) => e.location === "body")).toBe(true);
  });

  it("lists every body problem together in one 400", async () => {
    const res = await api("/api/v1/reviews", {
      method: "POST",
      body: {
        locale: "xx-XX",
        content: "x",
        reviewer_email: "nope",
        type: "product",
        rating: 0,
        colour: "red",
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unsupported_locale");
    expect(paths(res)).toEqual(["colour", "locale", "product_id", "rating", "reviewer_email"]);
  });

  it("saves nothing when the body is refused", async () => {
    const content = unique("refused");
    await api("/api/v1/reviews", { method: "POST", body: productReview({ content, order_id: 99_999_991 }) });
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM reviews WHERE content = ?")
      .bind(content)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("refuses locales on create with unknown_parameter", async () => {
    const res = await api("/api/v1/reviews?locales=es-ES", { method: "POST", body: productReview() });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unknown_parameter");
  });
});

describe("review update", () => {
  const patch = (id: number, body: unknown, query = "") =>
    api(`/api/v1/reviews/${id}${query}`, { method: "PATCH", body });

  it("changes only the fields sent", async () => {
    const review = await createReview({ rating: 2, reviewer_name: "Luis" });
    const res = await patch(
      review.id,
      { status: "published" },
      "?fields=status,rating,reviewer_name,content",
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: review.id,
      status: "published",
      rating: 2,
      reviewer_name: "Luis",
      content: "Muy cómoda.",
    });
  });

  it("clears nullable fields sent as null", async () => {
    const review = await createReview({
      rating: 5,
      reviewer_name: "Eva",
      order_id: orderId,
      customer_id: contactId,
      variant_id: p1.variantIds[0],
    });
    const res = await patch(
      review.id,
      { rating: null, reviewer_name: null, order_id: null, customer_id: null, variant_id: null },
      "?fields=rating,reviewer_name,order_id,customer_id,product_id,variant_id",
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: review.id,
      rating: null,
      reviewer_name: null,
      order_id: null,
      customer_id: null,
      product_id: p1.id,
      variant_id: null,
    });
  });

  it("refuses null for locale, content, reviewer_email, type, status and created_at", async () => {
    const review = await createReview();
    const res = await patch(review.id, {
      locale: null,
      content: null,
      reviewer_email: null,
      type: null,
      status: null,
      created_at: null,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["content", "created_at", "locale", "reviewer_email", "status", "type"]);
  });

  it("checks type against product_id on the merged state: a product review turned store must drop its product", async () => {
    const review = await createReview({ variant_id: p1.variantIds[0] });
    const refused = await patch(review.id, { type: "store" });
    expect(refused.status).toBe(400);
    expect(paths(refused)).toEqual(["product_id", "variant_id"]);
    const ok = await patch(
      review.id,
      { type: "store", product_id: null, variant_id: null },
      "?fields=type,product_id,variant_id",
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ id: review.id, type: "store", product_id: null, variant_id: null });
  });

  it("refuses removing the product of a product review", async () => {
    const review = await createReview();
    const res = await patch(review.id, { product_id: null });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["product_id"]);
  });

  it("turns a store review into a product review only with a product_id", async () => {
    const review = await createReview({ type: "store", product_id: undefined });
    expect(paths(await patch(review.id, { type: "product" }))).toEqual(["product_id"]);
    const ok = await patch(review.id, { type: "product", product_id: p2.id }, "?fields=type,product_id");
    expect(ok.json).toEqual({ id: review.id, type: "product", product_id: p2.id });
  });

  it("refuses a new product_id that does not own the stored variant", async () => {
    const review = await createReview({ variant_id: p1.variantIds[0] });
    const res = await patch(review.id, { product_id: p2.id });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["variant_id"]);
  });

  it("refuses unknown references in a patch", async () => {
    const review = await createReview();
    const res = await patch(review.id, { order_id: 99_999_991, customer_id: 99_999_992 });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("invalid_body");
    expect(paths(res)).toEqual(["customer_id", "order_id"]);
  });

  it("refuses an unsupported locale in a patch with unsupported_locale", async () => {
    const review = await createReview();
    const res = await patch(review.id, { locale: "es-XX" });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("unsupported_locale");
  });

  it("answers 404 for an unknown id, after body validation", async () => {
    const missing = await patch(99_999_999, { status: "published" });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe("not_found");
    const invalid = await patch(99_999_999, { rating: 9 });
    expect(invalid.status).toBe(400);
  });
});

describe("review seed", () => {
  it("produces reviewCount reviews of both types whose references fit the seed layout", () => {
    const scale = 2;
    const rows = reviewStatements(scale).flatMap(({ sql, params }) => {
      const columns = [...(/\(([^)]*)\) VALUES/.exec(sql)?.[1] ?? "").matchAll(/"(\w+)"/g)].map((m) => m[1]);
      const out: Record<string, unknown>[] = [];
      for (let i = 0; i < params.length; i += columns.length)
        out.push(Object.fromEntries(columns.map((c, j) => [c, params[i + j]])));
      return out;
    });
    expect(rows).toHaveLength(reviewCount(scale));
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(["product", "store"]));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["published", "unpublished"]));
    expect(rows.some((r) => r.rating === null)).toBe(true);
    expect(new Set(rows.map((r) => r.locale)).size).toBeGreaterThan(3);
    for (const r of rows) {
      if (r.type === "store") expect([r.product_id, r.variant_id]).toEqual([null, null]);
      else expect(r.product_id).toBeGreaterThanOrEqual(1);
      expect(r.product_id ?? 1).toBeLessThanOrEqual(productCount(scale));
      if (r.variant_id !== null) expect(variantIdsOfProduct(r.product_id as number)).toContain(r.variant_id);
      expect(r.order_id ?? 1).toBeLessThanOrEqual(orderCount(scale));
      expect(r.customer_id ?? 1).toBeLessThanOrEqual(contactCount(scale));
      expect(r.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(reviewStatements(scale)).toEqual(reviewStatements(scale));
  });
});
