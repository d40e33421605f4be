import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { unique } from "../support/unique.ts";

describe("suppliers", () => {
  it("creates a supplier and answers 201 with Location and name + id", async () => {
    const internalId = unique("SUP");
    const res = await api("/api/v1/suppliers", {
      method: "POST",
      body: { name: "Acme", internal_id: internalId },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ name: "Acme", id: expect.any(Number) });
    expect(res.headers.get("location")).toMatch(/\/api\/v1\/suppliers\/\d+$/);
  });

  it("lists suppliers with pagination", async () => {
    const res = await api("/api/v1/suppliers");
    expect(res.status).toBe(200);
    expect(res.json.pagination.current_page).toBe(1);
  });
});
