import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPTIMIZE_SQL } from "../../src/db/planner-statistics.ts";
import { submitBulk, waitForJob } from "../support/jobs.ts";
import { catalogStatements } from "../support/plan-catalog.ts";
import { estimatedRows } from "../support/statistics-states.ts";
import { unique } from "../support/unique.ts";

describe("planner statistics after a bulk job", () => {
  it("are taken again at the job's end when it grew a table 25× past them, not at the next hourly cron", async () => {
    await env.DB.batch(catalogStatements(12).map((q) => env.DB.prepare(q)));
    await env.DB.prepare(OPTIMIZE_SQL).run();
    expect(await estimatedRows("products")).toBe(12);
    const products = Array.from({ length: 400 }, () => ({
      internal_id: unique("GROW"),
      translations: { "es-ES": { name: `Nuevo ${unique("n")}` } },
      variants: [{ sku: unique("GROW-SKU") }],
    }));
    const job = await waitForJob(
      await submitBulk("/api/v1/products/bulk", { products, options: { match_by: "internal_id" } }),
      30_000,
    );
    expect(job.status).toBe("done");
    expect(await estimatedRows("products")).toBe(412);
    expect(await estimatedRows("variants")).toBe(424);
  });
});
