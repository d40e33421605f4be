import type { Client } from "openapi-fetch";

type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

interface LooseOperation {
  parameters: {
    query?: Record<string, unknown>;
    path?: Record<string, unknown>;
    header?: Record<string, unknown>;
  };
  requestBody?: { content: { "application/json": unknown } };
  responses: {
    200: { content: { "application/json": unknown } };
    202: { content: { "application/json": unknown } };
  };
}

/**
 * The paths as the generic helpers see them: any path, any parameters, an unknown body. The helpers
 * take typed arguments from their callers and check the answer's shape before typing it again.
 */
export type LoosePaths = Record<string, Record<HttpMethod, LooseOperation>>;

export type LooseClient = Client<LoosePaths>;
