import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { batch } from "../../db/client.ts";
import { EXPORT_JOB_TYPES, jobExports, jobs } from "../../db/schema/index.ts";
import type { AppEnv } from "../../env.ts";
import { acceptsGzip, clientAcceptEncoding } from "../../http/accept-encoding.ts";
import { conditional } from "../../http/etag.ts";
import { ApiError } from "../../http/problem.ts";
import { RESULT_TYPES, resultKey } from "./keys.ts";

const EXTENSIONS = { jsonl: "jsonl", csv: "csv" } as const;

/**
 * The file of a final export job, streamed from R2 as it is read, so the Worker never holds it
 * whole. It is stored gzip-compressed (src/async/exports/gzip-text.ts): a client accepting gzip
 * gets the stored bytes as they are, any other the text, decompressed on the way. 404 for an
 * unknown job and for a job without a file (not an export, or an export canceled or failed before
 * its file was complete); 409 while the job is not final. The `ETag` is R2's for the stored bytes,
 * so `If-None-Match` works.
 */
export async function exportResult(c: Context<AppEnv>, jobId: string): Promise<Response> {
  const db = c.get("db");
  const [rows] = await batch(c, [
    db
      .select({
        status: jobs.status,
        type: jobs.type,
        format: jobExports.format,
        completedAt: jobExports.completedAt,
        textBytes: jobExports.textBytes,
      })
      .from(jobs)
      .leftJoin(jobExports, eq(jobExports.jobId, jobs.id))
      .where(eq(jobs.id, jobId)),
  ]);
  const job = rows[0];
  if (!job) throw new ApiError("not_found", "Job not found");
  if (!(EXPORT_JOB_TYPES as readonly string[]).includes(job.type) || !job.format)
    throw new ApiError("not_found", "This job has no result: only export jobs write a file");
  if (job.status === "pending" || job.status === "running") {
    throw new ApiError("conflict", "The export is not final yet; read its result once it is", [
      { location: "path", path: "id", message: `the job is ${job.status}` },
    ]);
  }
  const object = job.completedAt ? await c.env.PAYLOADS.get(resultKey(jobId)) : null;
  if (!object)
    throw new ApiError("not_found", "This export has no result: it ended before its file was complete");
  const headers = new Headers({
    "Content-Type": RESULT_TYPES[job.format],
    "Content-Disposition": `attachment; filename="${job.type}-${jobId}.${EXTENSIONS[job.format]}"`,
    ETag: `W/${object.httpEtag}`,
    Vary: "Accept-Encoding",
  });
  const unchanged = conditional(c.req.header("if-none-match"), new Response(null, { status: 200, headers }));
  if (unchanged.status === 304) {
    await object.body.cancel();
    return unchanged;
  }
  if (acceptsGzip(clientAcceptEncoding(c.req.raw))) {
    headers.set("Content-Encoding", "gzip");
    headers.set("Content-Length", String(object.size));
    // `manual`: the body is gzip already; the runtime sends it as it is.
    return new Response(object.body, { status: 200, headers, encodeBody: "manual" });
  }
  headers.set("Content-Length", String(job.textBytes));
  const text = object.body
    .pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new FixedLengthStream(job.textBytes ?? 0));
  return new Response(text, { status: 200, headers });
}
