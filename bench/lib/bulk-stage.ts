import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  clearingPayload,
  LOCALES,
  MARKETS,
  productsPayload,
  runBulk,
  VARIANT_NULLED,
  variantsPayload,
} from "./bulk.ts";
import { clearingFloor, productsFloor, variantsFloor } from "./bulk-floor.ts";
import { readCatalog } from "./catalog-refs.ts";
import { openDb } from "./database.ts";
import { runHarness } from "./harness.ts";
import { log } from "./log.ts";
import type { BulkResult, InProcessBulk } from "./results.ts";

/** The market and locale the clearing updates remove: ones the other jobs do not write. */
const CLEARED_MARKET = "market_it";
const CLEARED_LOCALE = "it-IT";
/**
 * Records of each clearing update: 5 chunks of 200, enough for a per-chunk figure. Each removes a
 * row of variant_prices or variant_translations (416,000 and 840,000 rows at scale 500).
 */
const CLEARING_RECORDS = 1000;

/** A bulk result, its payload on disk, and how to compute its floor once the server has stopped. */
export interface BulkStage {
  result: BulkResult;
  path: string;
  bodyFile: string;
  floor: (serverFile: string) => void;
}

/**
 * Products upsert (creates), variants update, then two clearing variants updates (a market's
 * price, a locale's name), each POSTed and followed to its final state.
 */
export async function runBulkJobs(o: {
  origin: string;
  secret: string;
  runId: string;
  bulkBytes: number;
  floorFile: string;
  workDir: string;
  timeoutMs: number;
  errors: string[];
}): Promise<BulkStage[]> {
  const { variantIds, refs } = readCatalog(o.floorFile);
  const { updatedInternalIds, ...products } = productsPayload(o.runId, o.bulkBytes, refs);
  const variants = variantsPayload(variantIds, o.bulkBytes);
  const cleared = variantIds.slice(-CLEARING_RECORDS);
  const jobs = [
    {
      key: "products_upsert" as const,
      title:
        "products bulk upsert (3 creates to 1 update; brand, supplier, 2–3 categories, 3 images, 3 variants × 5 markets, 3 locales, generated slugs)",
      path: "/api/v1/products/bulk",
      payload: products,
      floor: (serverFile: string) =>
        productsFloor(serverFile, o.floorFile, {
          internalIdPrefix: `BENCH-P-${o.runId}-`,
          updatedInternalIds,
          locales: [...LOCALES],
          markets: MARKETS.map(([m]) => m),
        }),
    },
    {
      key: "variants_update" as const,
      title: `variants bulk update by id (stock, prices in 3 markets; some offers, ${VARIANT_NULLED.market} prices and ${VARIANT_NULLED.locale} names set to null)`,
      path: "/api/v1/variants/bulk",
      payload: variants,
      floor: (serverFile: string) => variantsFloor(serverFile, o.floorFile, variants.body),
    },
    {
      key: "variants_clear_prices" as const,
      title: `variants bulk update by id removing a market's price (prices.${CLEARED_MARKET}: null)`,
      path: "/api/v1/variants/bulk",
      payload: clearingPayload(cleared, { prices: CLEARED_MARKET }, o.bulkBytes),
      floor: (serverFile: string) =>
        clearingFloor(serverFile, o.floorFile, cleared, {
          table: "variant_prices",
          column: "market",
          value: CLEARED_MARKET,
        }),
    },
    {
      key: "variants_clear_translations" as const,
      title: `variants bulk update by id removing a locale's name (translations.${CLEARED_LOCALE}: null)`,
      path: "/api/v1/variants/bulk",
      payload: clearingPayload(cleared, { translations: CLEARED_LOCALE }, o.bulkBytes),
      floor: (serverFile: string) =>
        clearingFloor(serverFile, o.floorFile, cleared, {
          table: "variant_translations",
          column: "locale",
          value: CLEARED_LOCALE,
        }),
    },
  ];
  const out: BulkStage[] = [];
  for (const job of jobs) {
    const { body, ...payload } = job.payload;
    const bodyFile = join(o.workDir, `${job.key}.json`);
    writeFileSync(bodyFile, body);
    const result: BulkResult = {
      key: job.key,
      title: job.title,
      payloadBytes: Buffer.byteLength(body),
      payload,
    };
    const stage: BulkStage = {
      result,
      path: job.path,
      bodyFile,
      floor: (serverFile) => {
        if (!result.run) return;
        result.chunks = chunkCount(serverFile, result.run.jobId);
        try {
          result.floor = job.floor(serverFile);
          log(`${job.key}: floor ${result.floor.ms.toFixed(1)} ms for ${result.floor.rows} rows`);
        } catch (err) {
          o.errors.push(`${job.key} floor: ${(err as Error).message}`);
        }
      },
    };
    out.push(stage);
    try {
      log(`${job.key}: POST ${(result.payloadBytes / 1e6).toFixed(2)} MB, ${payload.records} records`);
      result.run = await runBulk({
        origin: o.origin,
        path: job.path,
        secret: o.secret,
        payload: job.payload,
        timeoutMs: o.timeoutMs,
      });
      const s = result.run.summary;
      log(
        `${job.key}: ${result.run.status} in ${(result.run.wallMs / 1000).toFixed(2)} s (accepted after ${result.run.acceptMs.toFixed(0)} ms; ${s.succeeded_records} ok, ${s.failed_records} failed)`,
      );
      if (result.run.status !== "done") o.errors.push(`${job.key}: job ended ${result.run.status}`);
    } catch (err) {
      result.error = (err as Error).message;
      o.errors.push(`${job.key}: ${result.error}`);
    }
  }
  return out;
}

/** How many chunks the server split the job into (read after the server has stopped). */
function chunkCount(serverFile: string, jobId: string): number | undefined {
  const db = openDb(serverFile, true);
  try {
    const row = db.prepare("SELECT chunk_count FROM jobs WHERE id = ?").get(jobId) as
      | { chunk_count: number }
      | undefined;
    return row?.chunk_count;
  } finally {
    db.close();
  }
}

/** The same jobs with the same bundle in Node (bench/bulk-inprocess.ts) on a pre-job copy. */
export function inProcessBulk(o: {
  stages: BulkStage[];
  bundle: string;
  sqliteFile: string;
  secret: string;
  errors: string[];
}) {
  const input = {
    bundle: o.bundle,
    sqliteFile: o.sqliteFile,
    secret: o.secret,
    jobs: o.stages.map((s) => ({ key: s.result.key, path: s.path, bodyFile: s.bodyFile })),
  };
  const run = runHarness<InProcessBulk[]>("bulk-inprocess.ts", input);
  if ("failure" in run) {
    o.errors.push(`in-process bulk failed ${run.failure}`);
    return;
  }
  for (const r of run.output) {
    const stage = o.stages.find((s) => s.result.key === r.key);
    if (stage) stage.result.inProcess = r;
    log(
      `${r.key} in-process: ${r.status} in ${(r.wallMs / 1000).toFixed(2)} s, ${r.messages} messages, ${r.d1CallsPerMessage.toFixed(1)} D1 calls each`,
    );
  }
}
