import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { createStorefrontClient, StorefrontApiError } from "../../../client/src/index.ts";
import type { PushArgs } from "./args.ts";
import { type FailedRecord, PartRecordFinder } from "./failed-records.ts";
import { KINDS } from "./kinds.ts";
import { type Part, splitIntoParts } from "./parts.ts";
import { formatTable, PushProgress } from "./progress.ts";
import { formatOf, positionName, readRecords } from "./read-records.ts";
import { submitPart } from "./submit.ts";

/** Jobs followed at once; the reader waits for a slot, so memory holds at most this many parts. */
const MAX_JOBS_IN_FLIGHT = 3;

interface JobRow {
  part: number;
  jobId: string;
  records: number;
  reattached: boolean;
  status: string;
  processed: number;
  succeeded: number;
  failed: number;
}

/**
 * Pushes the file: splits it into parts, submits each (a re-run re-attaches to the same jobs),
 * follows the jobs, writes failed records to `<file>.errors.jsonl`, prints a summary table.
 * Resolves to the exit code: 0 every record succeeded, 1 some failed.
 */
export async function push(args: PushArgs): Promise<0 | 1> {
  const kind = KINDS[args.kind];
  const format = formatOf(args.file);
  const where = positionName(format);
  const schema = kind.schema;
  let total = 0;
  for await (const _ of readRecords(args.file, format, schema)) total++;

  const errorsPath = `${args.file}.errors.jsonl`;
  rmSync(errorsPath, { force: true });
  let errors: WriteStream | undefined;
  let unsent = 0;
  const writeFailure = (position: number | null, entry: FailedRecord) => {
    errors ??= createWriteStream(errorsPath);
    errors.write(`${JSON.stringify({ [where]: position, ...entry })}\n`);
  };

  const replayed = new Set<string>();
  const client = createStorefrontClient({
    baseUrl: args.baseUrl,
    apiKey: args.apiKey,
    fetch: async (request) => {
      const response = await fetch(request);
      const key = request.headers.get("idempotency-key");
      if (key && response.headers.get("idempotency-replayed") === "true") replayed.add(key);
      return response;
    },
  });
  const progress = new PushProgress(total);
  const rows: JobRow[] = [];
  const render = () =>
    progress.update(
      unsent + rows.reduce((n, r) => n + r.processed, 0),
      unsent + rows.reduce((n, r) => n + r.failed, 0),
    );

  const follow = async (row: JobRow, part: Part) => {
    const job = await client.waitForJob(row.jobId, {
      intervalMs: 500,
      onProgress: (j) => {
        row.status = j.status ?? row.status;
        row.processed = j.summary?.processed_records ?? row.processed;
        row.succeeded = j.summary?.succeeded_records ?? row.succeeded;
        row.failed = j.summary?.failed_records ?? row.failed;
        render();
      },
    });
    if ((job.summary?.log_error_count ?? 0) === 0) return;
    const finder = new PartRecordFinder(part);
    for await (const log of client.jobLogs(row.jobId, { severity: "ERROR" })) {
      writeFailure(finder.positionOf(log.identifiers), {
        identifiers: log.identifiers ?? null,
        code: log.code ?? "OTHER",
        message: log.message ?? "",
        affected_fields: log.affected_fields ?? null,
      });
    }
  };

  const inFlight = new Set<Promise<void>>();
  let fatal: unknown;
  const target = { path: kind.path, itemsKey: kind.itemsKey, options: args.options };
  const parts = splitIntoParts(readRecords(args.file, format, schema), target, args.maxPartBytes, (f) => {
    unsent++;
    writeFailure(f.position, { identifiers: null, code: f.code, message: f.message, affected_fields: null });
    render();
  });
  try {
    for await (const part of parts) {
      while (inFlight.size >= MAX_JOBS_IN_FLIGHT) await Promise.race(inFlight);
      if (fatal) throw fatal;
      const body = { [kind.itemsKey]: part.records, options: args.options };
      let accepted: { job_id: string };
      try {
        accepted = await submitPart(client, args, body, part.idempotencyKey);
      } catch (error) {
        if (!isRejectedPart(error)) throw error;
        // The service refused the whole body (a record is not an object, …): every record of the part failed.
        progress.note(`part ${part.number} rejected: ${error.message}`);
        for (const position of part.positions) {
          unsent++;
          writeFailure(position, {
            identifiers: null,
            code: `HTTP_${error.status}`,
            message: error.message,
            affected_fields: null,
          });
        }
        render();
        continue;
      }
      const row: JobRow = {
        part: part.number,
        jobId: accepted.job_id,
        records: part.records.length,
        reattached: replayed.has(part.idempotencyKey),
        status: "pending",
        processed: 0,
        succeeded: 0,
        failed: 0,
      };
      rows.push(row);
      const task: Promise<void> = follow(row, part)
        .catch((error: unknown) => {
          fatal ??= error;
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    await Promise.all(inFlight);
    if (fatal) throw fatal;
  } finally {
    progress.stop();
    await new Promise<void>((resolve) => (errors ? errors.end(resolve) : resolve()));
  }

  const failed = unsent + rows.reduce((n, r) => n + r.failed, 0);
  const succeeded = rows.reduce((n, r) => n + r.succeeded, 0);
  printSummary(rows, { total, succeeded, failed, unsent, dryRun: args.options.dry_run === true });
  if (failed > 0) console.log(`Failed records (with their ${where} in ${args.file}): ${errorsPath}`);
  return failed > 0 || rows.some((r) => r.status !== "done") ? 1 : 0;
}

/** A 4xx other than authentication, rate limiting or a conflict: the body itself was refused. */
const isRejectedPart = (error: unknown): error is StorefrontApiError =>
  error instanceof StorefrontApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  ![401, 403, 409, 429].includes(error.status);

function printSummary(
  rows: JobRow[],
  totals: { total: number; succeeded: number; failed: number; unsent: number; dryRun: boolean },
) {
  const header = ["part", "job", "submitted", "records", "succeeded", "failed", "status"];
  const lines = rows.map((r) => [
    r.part,
    r.jobId,
    r.reattached ? "re-attached" : "new",
    r.records,
    r.succeeded,
    r.failed,
    r.status,
  ]);
  const sent = totals.total - totals.unsent;
  lines.push(["total", "", "", totals.total, totals.succeeded, totals.failed, ""]);
  console.log(formatTable([header, ...lines]));
  if (totals.unsent > 0)
    console.log(`${totals.unsent} records were not sent (see the errors file); ${sent} were.`);
  if (totals.dryRun) console.log("Dry run: every record was validated and matched; nothing was applied.");
}
