import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { createProduct, createSupplierRow } from "../support/factories/catalog.ts";
import { type JobView, jobLogs, submitBulk, waitForJob } from "../support/jobs.ts";
import { unique } from "../support/unique.ts";

const ROUTES = ["/api/v1/products/link-identifiers", "/api/v1/variants/link-identifiers"] as const;

async function runLink(
  items: unknown[],
  route: string = ROUTES[0],
): Promise<{ jobId: string; job: JobView }> {
  const jobId = await submitBulk(route, { items });
  const job = await waitForJob(jobId);
  expect(job.type).toBe("identifiers_link");
  return { jobId, job };
}

async function internalIds(productId: number) {
  const product = (await api(`/api/v1/products/${productId}?fields=internal_id&includes=variants`)).json;
  return {
    product: product.internal_id as string | null,
    variants: (product.variants as { id: number; internal_id: string | null }[]).map((v) => v.internal_id),
  };
}

describe("link identifiers", () => {
  for (const route of ROUTES) {
    it(`${route}: by ean assigns the variant's and the product's internal ids`, async () => {
      const ean = unique("LE");
      const p = await createProduct({ internalId: null, variants: [{ ean, internalId: null }] });
      const productInternal = unique("LP");
      const variantInternal = unique("LV");
      const { jobId, job } = await runLink(
        [{ ean, product_internal_id: productInternal, variant_internal_id: variantInternal }],
        route,
      );
      expect(job.status).toBe("done");
      expect(job.summary).toMatchObject({ total_records: 1, succeeded_records: 1, log_info_count: 1 });
      expect(await internalIds(p.id)).toEqual({ product: productInternal, variants: [variantInternal] });
      expect((await jobLogs(jobId)).map((l) => l.severity)).toEqual(["INFO"]);
    });
  }

  it("by sku + supplier_internal_id (sku case-insensitive)", async () => {
    const supplierInternal = unique("LS");
    const supplierId = await createSupplierRow(supplierInternal);
    const sku = unique("LinkSku");
    const p = await createProduct({ supplierId, variants: [{ sku, internalId: null }, {}] });
    const variantInternal = unique("LV");
    const { job } = await runLink([
      {
        sku: sku.toUpperCase(),
        supplier_internal_id: supplierInternal,
        variant_internal_id: variantInternal,
      },
    ]);
    expect(job.status).toBe("done");
    const ids = await internalIds(p.id);
    expect(ids.variants[0]).toBe(variantInternal);
    expect(ids.product).toBe(`P-${p.id}`); // only what the item carries is assigned
  });

  it("assigns only the product internal id when only that is sent", async () => {
    const ean = unique("LE");
    const p = await createProduct({ variants: [{ ean }] });
    const before = await internalIds(p.id);
    const productInternal = unique("LP");
    const { job } = await runLink([{ ean, product_internal_id: productInternal }]);
    expect(job.status).toBe("done");
    expect(await internalIds(p.id)).toEqual({ product: productInternal, variants: before.variants });
  });

  it("no match is NOT_FOUND; several matches are AMBIGUOUS_MATCH; nothing is linked", async () => {
    const shared = unique("SH");
    const p = await createProduct({ variants: [{ ean: shared }, { ean: shared }] });
    const before = await internalIds(p.id);
    const missing = unique("none");
    const { jobId, job } = await runLink([
      { ean: missing, variant_internal_id: unique("x") },
      { ean: shared, variant_internal_id: unique("y") },
    ]);
    expect(job.status).toBe("failed");
    expect((await jobLogs(jobId, "severity=ERROR")).map((e) => [e.code, e.identifiers])).toEqual([
      ["NOT_FOUND", { variant: { ean: missing } }],
      ["AMBIGUOUS_MATCH", { variant: { ean: shared } }],
    ]);
    expect(await internalIds(p.id)).toEqual(before);
  });

  it("both identifier options, neither, half of sku_supplier, or nothing to assign → INVALID_IDENTIFIER", async () => {
    const ean = unique("LE");
    await createProduct({ variants: [{ ean }] });
    const { jobId, job } = await runLink([
      { ean, sku: "S", supplier_internal_id: "X", variant_internal_id: unique("a") },
      { variant_internal_id: unique("b") },
      { sku: "S", variant_internal_id: unique("c") },
      { ean },
    ]);
    expect(job.status).toBe("failed");
    const errors = await jobLogs(jobId, "severity=ERROR");
    expect(errors.map((e) => e.code)).toEqual([
      "INVALID_IDENTIFIER",
      "INVALID_IDENTIFIER",
      "INVALID_IDENTIFIER",
      "INVALID_IDENTIFIER",
    ]);
    expect(errors[1]?.identifiers).toEqual({ record: { index: 1 } });
    expect(errors[2]?.affected_fields).toEqual(["supplier_internal_id"]);
    expect(errors[3]?.identifiers).toEqual({ variant: { ean } });
  });

  it("a taken internal id is INVALID_FIELD_VALUE for that item only", async () => {
    const taken = unique("TAKEN");
    await createProduct({ variants: [{ internalId: taken }] });
    const eanA = unique("LA");
    const eanB = unique("LB");
    const a = await createProduct({ variants: [{ ean: eanA }] });
    const b = await createProduct({ variants: [{ ean: eanB }] });
    const beforeB = await internalIds(b.id);
    const okId = unique("OK");
    const { jobId, job } = await runLink([
      { ean: eanA, variant_internal_id: okId },
      { ean: eanB, variant_internal_id: taken },
    ]);
    expect(job.status).toBe("done_with_errors");
    expect(job.summary).toMatchObject({ succeeded_records: 1, failed_records: 1, log_error_count: 1 });
    expect(await jobLogs(jobId, "severity=ERROR")).toEqual([
      expect.objectContaining({
        code: "INVALID_FIELD_VALUE",
        identifiers: { variant: { ean: eanB } },
        affected_fields: ["variant_internal_id"],
      }),
    ]);
    expect((await internalIds(a.id)).variants).toEqual([okId]);
    expect(await internalIds(b.id)).toEqual(beforeB);
  });

  it("a taken product internal id fails that item, and its variant id is not assigned either", async () => {
    const takenProduct = unique("TP");
    await createProduct({ internalId: takenProduct });
    const ean = unique("LE");
    const p = await createProduct({ variants: [{ ean }] });
    const before = await internalIds(p.id);
    const { jobId, job } = await runLink([
      { ean, product_internal_id: takenProduct, variant_internal_id: unique("V") },
    ]);
    expect(job.status).toBe("failed");
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error).toMatchObject({ code: "INVALID_FIELD_VALUE", affected_fields: ["product_internal_id"] });
    expect(await internalIds(p.id)).toEqual(before);
  });

  it("an unknown field or a non-string id is INVALID_FIELD_VALUE", async () => {
    const ean = unique("LE");
    await createProduct({ variants: [{ ean }] });
    const { jobId } = await runLink([{ ean, variant_internal_id: 5, colour: "red" }]);
    const [error] = await jobLogs(jobId, "severity=ERROR");
    expect(error?.code).toBe("INVALID_FIELD_VALUE");
    expect(error?.affected_fields?.sort()).toEqual(["colour", "variant_internal_id"]);
  });

  it("refuses a body without items with 400 and creates no job", async () => {
    for (const body of [{}, { items: [] }, { items: [1] }, { items: [{}], extra: 1 }]) {
      const res = await api(ROUTES[1], { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});
