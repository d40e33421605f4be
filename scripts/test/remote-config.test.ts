/**
 * wrangler.toml deploys to any account, staging mirrors production on resources of its own, and the
 * README's Deploy section, docs/deploy.md and CHANGELOG.md stay true to it. Runs in Node (`node --test`).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readWranglerConfig, type WranglerConfig } from "../lib/remote.ts";
import { PROJECT_ROOT } from "../lib/wrangler.ts";

const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), "utf8");
const production = readWranglerConfig();
const staging = readWranglerConfig("staging");

/** Every resource name an environment binds (D1, R2, queues). */
const resourceNames = (c: WranglerConfig) => [
  ...c.d1_databases.map((d) => d.database_name),
  ...c.r2_buckets.map((b) => b.bucket_name),
  ...(c.queues.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue]).filter(Boolean),
];

/** The bindings and settings of an environment with its resource names left out. */
const shape = (c: WranglerConfig) => ({
  d1: c.d1_databases.map((d) => [d.binding, d.migrations_dir]),
  r2: c.r2_buckets.map((b) => b.binding),
  producers: (c.queues.producers ?? []).map((p) => p.binding),
  consumers: (c.queues.consumers ?? []).map((q) => [
    q.dead_letter_queue !== undefined,
    q.max_batch_size,
    q.max_retries,
    q.max_concurrency,
  ]),
  limits: (c.ratelimits ?? []).map((r) => [r.name, r.simple]),
  crons: c.triggers.crons,
  build: c.build.command,
  // The same variables, each environment with its own values (e.g. a public origin of its own).
  vars: Object.keys(c.vars).sort(),
});

describe("wrangler.toml", () => {
  it("holds no resource id, so a deploy binds (or provisions) resources by name on any account", () => {
    const toml = read("wrangler.toml");
    assert.doesNotMatch(toml, /database_id|preview_database_id|^\s*id\s*=|00000000-/m);
    for (const d of [...production.d1_databases, ...staging.d1_databases])
      assert.ok(d.database_name, d.binding);
    for (const b of [...production.r2_buckets, ...staging.r2_buckets]) assert.ok(b.bucket_name, b.binding);
  });

  it("builds the /docs asset in wrangler's own [build] command, for every wrangler entry point", () => {
    assert.equal(production.build.command, "node scripts/prepare-assets.mjs");
  });

  it("keeps the minutely liveness sweep and the hourly retention cron", () => {
    assert.deepEqual(production.triggers.crons, ["* * * * *", "0 * * * *"]);
  });

  it("runs at most three job chunks at once (README, Bulk jobs)", () => {
    const jobs = production.queues.consumers?.find((q) => q.queue === "storefront-jobs");
    assert.equal(jobs?.max_concurrency, 3);
    assert.match(read("README.md"), /`max_concurrency = 3`/);
  });

  it("gives staging the same bindings and settings as production", () => {
    assert.deepEqual(shape(staging), shape(production));
  });

  it("gives staging a Worker, D1, R2, queues and rate-limit namespaces of its own", () => {
    assert.notEqual(staging.name, production.name);
    const shared = resourceNames(staging).filter((n) => resourceNames(production).includes(n));
    assert.deepEqual(shared, []);
    const namespaces = (c: WranglerConfig) => (c.ratelimits ?? []).map((r) => r.namespace_id);
    assert.deepEqual(
      namespaces(staging).filter((n) => namespaces(production).includes(n)),
      [],
    );
  });
});

describe("README Deploy section", () => {
  const readme = read("README.md");
  const start = readme.indexOf("\n## Deploy\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));

  it("lists login, setup, deploy and the first request, in that order", () => {
    assert.ok(start >= 0, "README has a '## Deploy' section");
    const steps = ["npx wrangler login", "npm run setup:remote", "npm run deploy", "curl"];
    const positions = steps.map((s) => section.indexOf(s));
    for (const [i, step] of steps.entries()) assert.ok((positions[i] ?? -1) >= 0, step);
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
  });

  it("comes after the Workers Paid plan requirement", () => {
    const plan = readme.indexOf("Workers Paid");
    assert.ok(
      plan >= 0 && plan < readme.indexOf("npx wrangler login"),
      "Workers Paid is named before the steps",
    );
  });

  it("names npm run deploy, never a bare wrangler deploy (which warns that no environment was chosen)", () => {
    assert.doesNotMatch(readme, /npx wrangler deploy(?! --env)/);
  });
});

describe("docs/deploy.md", () => {
  it("names every resource production binds", () => {
    const deploy = read("docs/deploy.md");
    for (const name of resourceNames(production)) assert.ok(deploy.includes(`${name}`), `${name}`);
  });
});

describe("CHANGELOG.md", () => {
  it("has an Unreleased section and names package.json's version as its latest release", () => {
    const changelog = read("CHANGELOG.md");
    const version = (JSON.parse(read("package.json")) as { version: string }).version;
    assert.match(changelog, /^## \[Unreleased\]$/m);
    assert.equal(changelog.match(/^## \[(\d+\.\d+\.\d+)\]/m)?.[1], version);
  });
});
