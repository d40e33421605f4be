/**
 * npm run setup:remote and npm run deploy against a fake wrangler (fake-wrangler.ts) that plays a
 * Cloudflare account: what each creates, that a second run creates nothing, and the order of
 * migrations and deploy. Runs in Node (`node --test`), no account or network needed.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { account, migrationCount, production, queueNames, staging } from "./fake-cloud.ts";

const creates = (calls: string[][]) =>
  calls.filter((c) => c.includes("create") || c[0] === "deploy").map((c) => c.join(" "));

describe("npm run setup:remote", () => {
  const cloud = account();
  let first: ReturnType<typeof cloud.run>;
  before(() => {
    first = cloud.run("setup-remote.ts");
  });

  it("creates the four queues (two and their dead-letter queues) and the D1 database on a fresh account", () => {
    assert.equal(first.status, 0, first.output);
    assert.deepEqual(cloud.state().queues.sort(), queueNames(production).sort());
    assert.equal(cloud.state().queues.length, 4);
    assert.deepEqual(
      cloud.state().d1.map((d) => d.name),
      ["storefront"],
    );
  });

  it("applies every migration to the remote database and says which", () => {
    const apply = first.calls.find((c) => c.slice(0, 3).join(" ") === "d1 migrations apply");
    assert.deepEqual(apply, ["d1", "migrations", "apply", "DB", "--remote", "--env="]);
    assert.match(first.stdout, /applied\s+migrations of DB: 0000_init\.sql/);
    assert.equal(first.stdout.match(/\d{4}_[\w-]+\.sql/g)?.length, migrationCount);
  });

  it("leaves the R2 buckets to the first deploy's provisioning and says so", () => {
    assert.deepEqual(cloud.state().r2, []);
    assert.match(first.stdout, /skipped\s+R2 buckets storefront-bulk-payloads, storefront-images/);
  });

  it("does not ask for a key without a terminal, and says how to create one", () => {
    assert.match(
      first.stdout,
      /skipped\s+first API key: not asked without a terminal; pass --create-key NAME/,
    );
    assert.ok(!first.calls.some((c) => c.includes("execute") && c.join(" ").includes("INSERT")));
  });

  it("creates nothing on a second run, and says each thing exists or was skipped", () => {
    const second = cloud.run("setup-remote.ts");
    assert.equal(second.status, 0, second.output);
    assert.deepEqual(creates(second.calls), []);
    for (const queue of queueNames(production))
      assert.match(second.stdout, new RegExp(`exists\\s+queue ${queue}\\n`));
    assert.match(second.stdout, /exists\s+D1 database storefront/);
    assert.match(second.stdout, /skipped\s+migrations of DB: none pending/);
  });

  it("--create-key NAME prints the new key's secret once on stdout; a re-run with the same name creates none", () => {
    const withKey = cloud.run("setup-remote.ts", "--create-key", "ops");
    assert.equal(withKey.status, 0, withKey.output);
    const secrets = withKey.stdout.match(/^sfk_[\w-]{43}$/gm) ?? [];
    assert.equal(secrets.length, 1, withKey.output);
    const again = cloud.run("setup-remote.ts", "--create-key", "ops");
    assert.equal(again.status, 0, again.output);
    assert.doesNotMatch(again.stdout, /sfk_/);
    assert.match(again.stdout, /skipped\s+API key 'ops': an active key of that name exists/);
    assert.ok(!again.calls.some((c) => c.join(" ").includes("INSERT")));
  });

  it("then npm run deploy: every resource wrangler.toml binds exists (binding by binding)", () => {
    const deployed = cloud.run("deploy.ts");
    assert.equal(deployed.status, 0, deployed.output);
    const state = cloud.state();
    for (const d of production.d1_databases)
      assert.ok(
        state.d1.some((x) => x.name === d.database_name),
        d.binding,
      );
    for (const b of production.r2_buckets) assert.ok(state.r2.includes(b.bucket_name ?? ""), b.binding);
    for (const p of production.queues.producers ?? []) assert.ok(state.queues.includes(p.queue), p.binding);
    for (const q of queueNames(production)) assert.ok(state.queues.includes(q), q);
  });

  it("refuses when not logged in, before creating anything", () => {
    const loggedOut = account({ loggedIn: false });
    const result = loggedOut.run("setup-remote.ts");
    assert.equal(result.status, 1);
    assert.match(result.output, /npx wrangler login/);
    assert.deepEqual(loggedOut.state().queues, []);
  });

  it("refuses an environment wrangler.toml does not have (wrangler would fall back to production)", () => {
    const cloud2 = account();
    const result = cloud2.run("setup-remote.ts", "--env", "stagign");
    assert.equal(result.status, 2);
    assert.match(result.output, /no environment 'stagign' \(it has: staging\)/);
    assert.deepEqual(cloud2.state().calls, []);
  });
});

describe("npm run deploy", () => {
  it("refuses when not logged in, saying how to log in (as setup:remote does), and deploys nothing", () => {
    const loggedOut = account({ loggedIn: false });
    const result = loggedOut.run("deploy.ts");
    assert.equal(result.status, 1);
    assert.match(result.output, /Not logged in to Cloudflare: run `npx wrangler login`/);
    assert.deepEqual(loggedOut.state().deployments, []);
  });

  it("refuses before setup:remote (no D1 database yet) and deploys nothing", () => {
    const cloud = account();
    const result = cloud.run("deploy.ts");
    assert.equal(result.status, 1);
    assert.match(result.output, /D1 database storefront does not exist yet: run npm run setup:remote first/);
    assert.deepEqual(cloud.state().deployments, []);
  });

  it("applies pending migrations first, then deploys; the R2 buckets appear with the deploy", () => {
    // An account where setup created the queues and the database but no migration ran yet.
    const cloud = account({
      queues: queueNames(production),
      d1: [{ name: "storefront", uuid: "b6f0b6a4-0000-4000-8000-000000000000" }],
    });
    const result = cloud.run("deploy.ts");
    assert.equal(result.status, 0, result.output);
    const order = result.calls.map((c) => c.slice(0, 3).join(" "));
    assert.ok(order.indexOf("d1 migrations apply") >= 0, order.join("; "));
    assert.ok(order.indexOf("d1 migrations apply") < order.indexOf("deploy --env="), order.join("; "));
    assert.match(result.stdout, /applied\s+migrations of DB: 0000_init\.sql/);
    assert.deepEqual(
      cloud.state().deployments.map(({ worker, env }) => ({ worker, env })),
      [
        { worker: "storefront-api", env: "" },
        { worker: "storefront-api", env: "" },
      ],
      "a first deploy without a public origin learns the workers.dev address, then deploys with it",
    );
    assert.deepEqual(cloud.state().r2.sort(), ["storefront-bulk-payloads", "storefront-images"]);

    const again = cloud.run("deploy.ts");
    assert.equal(again.status, 0, again.output);
    assert.match(again.stdout, /skipped\s+migrations of DB: none pending/);
  });

  it("fails like wrangler when the dead-letter queues were never created (setup skipped)", () => {
    const cloud = account({ d1: [{ name: "storefront", uuid: "b6f0b6a4-0000-4000-8000-000000000001" }] });
    const result = cloud.run("deploy.ts");
    assert.equal(result.status, 1);
    assert.match(result.output, /Queue "storefront-jobs-dlq" does not exist/);
    assert.deepEqual(cloud.state().deployments, []);
  });
});

describe("--env staging", () => {
  it("sets up and deploys staging's own resources, none of production's", () => {
    const cloud = account();
    const setup = cloud.run("setup-remote.ts", "--env", "staging");
    assert.equal(setup.status, 0, setup.output);
    const deploy = cloud.run("deploy.ts", "--env", "staging");
    assert.equal(deploy.status, 0, deploy.output);
    const state = cloud.state();
    assert.deepEqual(state.queues.sort(), queueNames(staging).sort());
    assert.deepEqual(
      state.d1.map((d) => d.name),
      ["storefront-staging"],
    );
    assert.deepEqual(state.r2.sort(), staging.r2_buckets.map((b) => b.bucket_name).sort());
    assert.deepEqual(
      new Set(state.deployments.map((d) => `${d.worker} ${d.env}`)),
      new Set(["storefront-api-staging staging"]),
    );
    assert.ok(
      cloud
        .state()
        .calls.filter((c) => c[0] === "deploy" || c[1] === "migrations" || c[1] === "execute")
        .every((c) => c.join(" ").includes("--env staging")),
    );
  });
});
