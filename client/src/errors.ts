/** An answer other than 2xx from the API, with its status and problem document (RFC 9457). */
export class StorefrontApiError extends Error {
  readonly status: number;
  readonly problem: unknown;

  constructor(method: string, url: string, status: number, problem: unknown) {
    super(`${method} ${url} answered ${status}${describe(problem)}`);
    this.name = "StorefrontApiError";
    this.status = status;
    this.problem = problem;
  }
}

function describe(problem: unknown): string {
  if (typeof problem !== "object" || problem === null) return "";
  const detail = "detail" in problem ? problem.detail : "title" in problem ? problem.title : undefined;
  return typeof detail === "string" ? `: ${detail}` : "";
}
