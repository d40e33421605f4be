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
          bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: "development" },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      globalSetup: ["./test/global-setup.ts"],
      include: ["test/**/*.test.ts"],
      testTimeout: 20_000,
    },
  };
});
