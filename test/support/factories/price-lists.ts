import { expect } from "vitest";
import { api } from "../api.ts";
import { unique } from "../unique.ts";

/** An active price list without discounts, created through the API; its id. */
export async function createPriceList(): Promise<number> {
  const res = await api("/api/v1/price-lists", {
    method: "POST",
    body: {
      internal_id: unique("PL"),
      is_active: true,
      global_discount: "0",
      category_discounts: [],
      brand_discounts: [],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id as number;
}
