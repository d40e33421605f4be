import { createWriteStream, renameSync, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { type ChangeResource, createStorefrontClient } from "../../../client/src/index.ts";
import { formatTable, PushProgress } from "./progress.ts";
import type { ChangesPullArgs, ExportPullArgs, PullArgs } from "./pull-args.ts";

/**
 * Pulls an export: starts the job, shows its progress (lines written of the records counted),
 * streams its file to `<out>` (written beside it, then renamed, so an interrupted pull leaves no
 * half file under the name) and prints a summary. Resolves to the exit code: 0 when the job is
 * `done`, 1 when it ended otherwise (its file, if any, is still written).
 */
export function pull(args: PullArgs): Promise<0 | 1> {
  return args.mode === "changes" ? pullChanges(args) : pullExport(args);
}

/**
 * Prints the change feed after `args.after`: one entry per line (JSON) on stdout, then the cursor
 * to continue from on stderr. A cursor older than the feed's retention throws (410 `cursor_expired`).
 */
async function pullChanges(args: ChangesPullArgs): Promise<0> {
  const client = createStorefrontClient({ baseUrl: args.baseUrl, apiKey: args.apiKey });
  let cursor = args.after ?? "";
  let count = 0;
  for await (const entry of client.changes({
    ...(args.after !== undefined ? { after: args.after } : {}),
    ...(args.resources ? { resources: args.resources.split(",") as ChangeResource[] } : {}),
    perPage: 1000,
    onCursor: (next) => {
      cursor = next;
    },
  })) {
    process.stdout.write(`${JSON.stringify(entry)}\n`);
    count++;
  }
  process.stderr.write(`${count} change(s); next cursor: ${cursor}\n`);
  return 0;
}

async function pullExport(args: ExportPullArgs): Promise<0 | 1> {
  const client = createStorefrontClient({ baseUrl: args.baseUrl, apiKey: args.apiKey });
  let progress: PushProgress | undefined;
  let jobId = "";
  const file = await client
    .exportJob(args.kind, {
      filters: args.filters,
      format: args.format,
      intervalMs: 500,
      onAccepted: (id) => {
        jobId = id;
        process.stderr.write(`export job ${id} accepted\n`);
      },
      onProgress: (job) => {
        const summary = job.summary;
        if (!summary || job.status === "pending") return;
        progress ??= new PushProgress(summary.total_records);
        progress.update(summary.processed_records, summary.failed_records);
      },
    })
    .finally(() => progress?.stop());
  const partial = `${args.out}.partial`;
  try {
    await pipeline(Readable.fromWeb(file.body as WebReadableStream<Uint8Array>), createWriteStream(partial));
    renameSync(partial, args.out);
  } finally {
    rmSync(partial, { force: true });
  }
  const summary = file.job.summary;
  console.log(
    formatTable([
      ["job", "status", "records", "file"],
      [jobId, file.job.status ?? "", summary?.processed_records ?? 0, args.out],
    ]),
  );
  return file.job.status === "done" ? 0 : 1;
}
