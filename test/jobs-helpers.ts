import { api } from "./helpers.ts";

export interface JobView {
  id: string;
  type: string;
  status: string;
  summary: Record<string, number>;
}

/** Posts a bulk request and returns its job id (asserting the 202 answer shape). */
export async function submitBulk(path: string, body: unknown): Promise<string> {
  const res = await api(path, { method: "POST", body });
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status}: ${res.text}`);
  return res.json[0].job_id as string;
}

/** Polls the job until it reaches a final state (the real queue consumer runs in the background). */
export async function waitForJob(jobId: string, timeoutMs = 15_000): Promise<JobView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(`/api/v1/jobs/${jobId}`);
    if (["done", "done_with_errors", "failed"].includes(res.json?.status)) return res.json as JobView;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} still ${res.json?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function jobLogs(jobId: string, query = "") {
  const res = await api(`/api/v1/jobs/${jobId}/logs${query ? `?${query}` : ""}`);
  return res.json.data as {
    id: number;
    severity: string;
    code: string | null;
    message: string;
    identifiers: Record<string, unknown> | null;
    affected_fields: string[] | null;
  }[];
}
