/**
 * A deployment says which public origin image URLs are built on (`PUBLIC_BASE_URL`): setup records
 * a custom domain in wrangler.toml, and a deploy without one records the Worker's workers.dev
 * address; every deploy passes the origin to the Worker. Against the fake wrangler (fake-wrangler.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { experimental_readRawConfig } from "wrangler";
import { withPublicOrigin, workersDevOrigin } from "../lib/public-origin.ts";
import { account, production, queueNames } from "./fake-cloud.ts";

const WORKERS_DEV = "https://storefront-api.example.workers.dev";

/** An account where setup already created the queues and the database. */
const setUp = () =>
  account({
    queues: queueNames(production),
    d1: [{ name: "storefront", uuid: "b6f0b6a4-0000-4000-8000-000000000002" }],
  });

const dir = mkdtempSync(join(tmpdir(), "public-origin-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The vars wrangler reads from a wrangler.toml text, for one environment ("" the top level). */
function varsOf(toml: string, env: string) {
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, toml);
  const raw = experimental_readRawConfig({ config: path }, { hideWarnings: true }).rawConfig;
  const vars = env === "" ? raw.vars : raw.env?.[env]?.vars;
  return vars === undefined ? undefined : ({ ...vars } as Record<string, unknown>);
}

describe("recording the public origin in wrangler.toml", () => {
  const toml = `name = "w"\n\n[vars]\nENVIRONMENT = "production"\n# PUBLIC_BASE_URL = "https://api.example.com"\n\n[[r2_buckets]]\nbinding = "IMAGES"\n\n[env.staging.vars]\nENVIRONMENT = "production"\n`;

  it("sets the environment's entry in place of the commented example, the rest unchanged", () => {
    const top = withPublicOrigin(toml, "", "https://api.shop.example");
    assert.deepEqual(varsOf(top, ""), {
      ENVIRONMENT: "production",
      PUBLIC_BASE_URL: "https://api.shop.example",
    });
    assert.deepEqual(varsOf(top, "staging"), { ENVIRONMENT: "production" });
    assert.equal(
      top.replace('PUBLIC_BASE_URL = "https://api.shop.example"', ""),
      toml.replace(/# PUBLIC.*/, ""),
    );
  });

  it("ends a section without an example, replaces an entry already there, and adds a missing section", () => {
    const staged = withPublicOrigin(toml, "staging", "https://staging.shop.example");
    assert.deepEqual(varsOf(staged, "staging"), {
      ENVIRONMENT: "production",
      PUBLIC_BASE_URL: "https://staging.shop.example",
    });
    const again = withPublicOrigin(staged, "staging", "https://other.shop.example");
    assert.equal(varsOf(again, "staging")?.PUBLIC_BASE_URL, "https://other.shop.example");
    assert.equal(again.match(/^PUBLIC_BASE_URL =/gm)?.length, 1);
    const added = withPublicOrigin('name = "w"\n', "qa", "https://qa.shop.example");
    assert.deepEqual(varsOf(added, "qa"), { PUBLIC_BASE_URL: "https://qa.shop.example" });
  });

  it("reads the Worker's workers.dev address from wrangler deploy's output", () => {
    const output =
      "Uploaded storefront-api (3.2 sec)\nDeployed storefront-api triggers\n  https://storefront-api.acme-7.workers.dev\n";
    assert.equal(workersDevOrigin(output, "storefront-api"), "https://storefront-api.acme-7.workers.dev");
    assert.equal(workersDevOrigin("Uploaded storefront-api\n", "storefront-api"), undefined);
  });
});

describe("npm run deploy passes the public origin to the Worker", () => {
  it("without one, deploys, then deploys again with the workers.dev address and records it", () => {
    const cloud = setUp();
    const first = cloud.run("deploy.ts");
    assert.equal(first.status, 0, first.output);
    const deploys = cloud.state().deployments;
    assert.equal(deploys.length, 2);
    assert.equal(deploys[1]?.vars.PUBLIC_BASE_URL, WORKERS_DEV);
    assert.match(
      first.stdout,
      new RegExp(`public origin ${WORKERS_DEV} \\(the workers.dev address, now recorded in wrangler.toml`),
    );
    assert.equal(varsOf(cloud.toml(), "")?.PUBLIC_BASE_URL, WORKERS_DEV);

    const second = cloud.run("deploy.ts");
    assert.equal(second.status, 0, second.output);
    assert.equal(cloud.state().deployments.length, 3, "a recorded origin needs one deploy");
    assert.equal(cloud.state().deployments[2]?.vars.PUBLIC_BASE_URL, WORKERS_DEV);
    assert.match(second.stdout, new RegExp(`public origin ${WORKERS_DEV} \\(wrangler.toml\\)`));
  });

  it("setup --public-origin records a custom domain; deploy then deploys once with it", () => {
    const cloud = setUp();
    const setup = cloud.run("setup-remote.ts", "--public-origin", "https://api.shop.example/");
    assert.equal(setup.status, 0, setup.output);
    assert.match(
      setup.stdout,
      /created\s+public origin https:\/\/api\.shop\.example: recorded in wrangler\.toml/,
    );
    assert.equal(varsOf(cloud.toml(), "")?.PUBLIC_BASE_URL, "https://api.shop.example");
    const deploy = cloud.run("deploy.ts");
    assert.equal(deploy.status, 0, deploy.output);
    assert.deepEqual(
      cloud.state().deployments.map((d) => d.vars.PUBLIC_BASE_URL),
      ["https://api.shop.example"],
    );
    assert.match(deploy.stdout, /curl https:\/\/api\.shop\.example\/api\/v1\/health/);
  });

  it("setup without a terminal or an origin says the first deploy records the workers.dev address", () => {
    const cloud = setUp();
    const setup = cloud.run("setup-remote.ts");
    assert.equal(setup.status, 0, setup.output);
    assert.match(
      setup.stdout,
      /skipped\s+public origin: the first npm run deploy records the Worker's workers\.dev address/,
    );
    assert.equal(varsOf(cloud.toml(), "")?.PUBLIC_BASE_URL, undefined);
  });

  it("refuses an origin that is not https before calling wrangler", () => {
    const cloud = setUp();
    for (const script of ["setup-remote.ts", "deploy.ts"]) {
      const result = cloud.run(script, "--public-origin", "http://api.shop.example");
      assert.equal(result.status, 2, result.output);
      assert.match(result.output, /--public-origin must be an https URL/);
    }
    assert.deepEqual(cloud.state().calls, []);
  });
});
