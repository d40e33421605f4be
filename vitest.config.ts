import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ENVIRONMENT: "development",
            // The public origin stored images render on; the tests address the Worker there too.
            PUBLIC_BASE_URL: "https://api.test",
            // Webhook retries come at once in tests (the delays are multiplied by this).
            WEBHOOK_RETRY_SCALE: "0",
            // Cases per route of the property-based fuzz suites (test/fuzz/); default 1,000.
            FUZZ_RUNS: process.env.FUZZ_RUNS ?? "",
          },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/support/setup.ts"],
      globalSetup: ["./test/support/fixture-server.ts"],
      include: ["test/**/*.test.ts"],
      testTimeout: 20_000,
      // Vitest's default is one file at a time on a 2-core machine (cores - 1), as CI's is; the
      // main process only relays, so every core runs a file (CI's vitest: 859 s -> 487 s).
      maxWorkers: "100%",
      // The per-request and per-chunk log lines (src/lib/log.ts) would flood the output; tests that
      // check them spy on console. Errors and warnings still show.
      onConsoleLog: (line: string) => !/"event":"(request|job\.chunk)"/.test(line),
    },
  };
});
