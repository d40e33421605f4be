import { env } from "cloudflare:test";
import { createDb } from "../../src/db/client.ts";

/** drizzle over the test file's D1, on the service's own schema: a renamed column fails the typecheck. */
export const testDb = () => createDb(env.DB);
