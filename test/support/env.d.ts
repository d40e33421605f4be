import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../../src/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** Cases per route of the fuzz suites, from the environment; empty for the default. */
      FUZZ_RUNS: string;
    }
  }
}

declare module "vitest" {
  interface ProvidedContext {
    fixtureOrigin: string;
  }
}
