/**
 * A fake `wrangler` for the tests of the remote scripts (setup-remote.test.ts): the scripts run it
 * instead of the real one when `STOREFRONT_WRANGLER_JS` names this file. It plays one Cloudflare
 * account kept in `FAKE_WRANGLER_DIR` (state.json, and one SQLite file per D1 database, so
 * migrations and `d1 execute` run for real) and appends every call to state.json's `calls`.
 *
 * It answers the commands the scripts use as wrangler 4.155 does (same messages, same exit codes):
 * whoami, queues info|create, d1 list|create|execute|migrations apply, deploy. Its deploy checks
 * and provisions like wrangler's: a queue that is only consumed (a dead-letter queue) must exist,
 * while producer queues, D1 databases and R2 buckets that are missing are created.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { WranglerConfig } from "../lib/remote.ts";
import { emptyAccount, type FakeAccount } from "./fake-account.ts";

const dir = process.env.FAKE_WRANGLER_DIR;
if (!dir) throw new Error("FAKE_WRANGLER_DIR is not set");
const statePath = join(dir, "state.json");
const state: FakeAccount = existsSync(statePath)
  ? JSON.parse(readFileSync(statePath, "utf8"))
  : emptyAccount();

const argv = process.argv.slice(2);
state.calls.push(argv);

/** `--env NAME`, `--env=NAME` or `--env=` (top level), as wrangler reads them. */
function envName(): string {
  for (const [i, arg] of argv.entries()) {
    if (arg.startsWith("--env=")) return arg.slice("--env=".length);
    if (arg === "--env" || arg === "-e") return argv[i + 1] ?? "";
  }
  return "";
}
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const positionals = argv.filter(
  (a, i) => !a.startsWith("-") && !argv[i - 1]?.match(/^--(env|command|file|var)$/),
);

/**
 * wrangler.toml for the chosen environment: from `FAKE_WRANGLER_CONFIG` (JSON by environment name,
 * "" for the top level) when the test passes it, which spares loading wrangler on every call.
 */
const config = async (): Promise<WranglerConfig> => {
  const given = process.env.FAKE_WRANGLER_CONFIG;
  if (given) {
    const configs = JSON.parse(given) as Record<string, WranglerConfig>;
    const chosen = configs[envName()];
    if (!chosen) fail(`✘ [ERROR] the fake wrangler was given no configuration for env '${envName()}'`);
    return chosen;
  }
  return (await import("../lib/remote.ts")).readWranglerConfig(envName());
};

const d1File = (name: string) => join(dir as string, `d1-${name}.sqlite`);

/** The D1 database a binding or name refers to, as wrangler resolves it (by database_name). */
async function resolveDatabase(nameOrBinding: string) {
  const configured = (await config()).d1_databases.find(
    (d) => d.binding === nameOrBinding || d.database_name === nameOrBinding,
  );
  const name = configured?.database_name ?? nameOrBinding;
  const db = state.d1.find((d) => d.name === name);
  if (!db) {
    fail(
      `✘ [ERROR] Couldn't find a D1 DB named '${name}' (bound as '${nameOrBinding}') in the API. Run 'wrangler d1 create ${name}' to create it.`,
    );
  }
  return { db: new DatabaseSync(d1File(name)), migrationsDir: configured?.migrations_dir ?? "migrations" };
}

function fail(message: string): never {
  save();
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function save() {
  mkdirSync(dir as string, { recursive: true });
  writeFileSync(statePath, JSON.stringify(state, null, 2));
}

async function run(): Promise<void> {
  const [group, command, name] = positionals;
  if (group === "whoami") {
    console.log(
      state.loggedIn
        ? "👋 You are logged in with an OAuth Token, associated with the email dev@example.com."
        : "You are not authenticated. Please run `wrangler login`.",
    );
    return;
  }
  if (!state.loggedIn) fail("✘ [ERROR] You are not authenticated. Please run `wrangler login`.");

  if (group === "queues" && command === "info" && name) {
    if (!state.queues.includes(name)) {
      fail(`✘ [ERROR] Queue "${name}" does not exist. To create it, run: wrangler queues create ${name}`);
    }
    console.log(`Queue Name: ${name}\nQueue ID: ${name}-id\nNumber of Producers: 0\nNumber of Consumers: 0`);
    return;
  }
  if (group === "queues" && command === "create" && name) {
    if (state.queues.includes(name)) fail(`✘ [ERROR] A queue with name '${name}' already exists.`);
    state.queues.push(name);
    console.log(`🌀 Creating queue '${name}'\n✅ Created queue '${name}'`);
    return;
  }
  if (group === "d1" && command === "list") {
    console.log(
      JSON.stringify(
        state.d1.map((d) => ({ uuid: d.uuid, name: d.name })),
        null,
        2,
      ),
    );
    return;
  }
  if (group === "d1" && command === "create" && name) {
    if (state.d1.some((d) => d.name === name)) fail("✘ [ERROR] A database with that name already exists");
    state.d1.push({ name, uuid: randomUUID() });
    console.log(`✅ Successfully created DB '${name}'`);
    return;
  }
  if (group === "d1" && command === "migrations" && positionals[2] === "apply") {
    const { db, migrationsDir } = await resolveDatabase(positionals[3] ?? "");
    db.exec(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE)",
    );
    const applied = new Set(
      (db.prepare("SELECT name FROM d1_migrations").all() as { name: string }[]).map((r) => r.name),
    );
    const pending = readdirSync(migrationsDir)
      .filter((f) => f.endsWith(".sql") && !applied.has(f))
      .sort();
    if (pending.length === 0) {
      console.log("✅ No migrations to apply!");
      return;
    }
    console.log(`Migrations to be applied:\n${pending.map((f) => `│ ${f} │`).join("\n")}`);
    for (const file of pending) {
      db.exec(readFileSync(join(migrationsDir, file), "utf8"));
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").run(file);
    }
    console.log(pending.map((f) => `│ ${f} │ ✅ │`).join("\n"));
    return;
  }
  if (group === "d1" && command === "execute") {
    const { db } = await resolveDatabase(positionals[2] ?? "");
    const sql = option("--command");
    if (!sql) fail("✘ [ERROR] the fake wrangler only runs --command");
    const statement = db.prepare(sql);
    let results: unknown[] = [];
    if (statement.columns().length > 0) results = statement.all();
    else statement.run();
    console.log(JSON.stringify([{ results, success: true, meta: {} }], null, 2));
    return;
  }
  if (group === "deploy") {
    const c = await config();
    const producers = new Set(c.queues.producers?.map((p) => p.queue));
    for (const consumer of c.queues.consumers ?? []) {
      if (!producers.has(consumer.queue) && !state.queues.includes(consumer.queue)) {
        fail(
          `✘ [ERROR] Queue "${consumer.queue}" does not exist. To create it, run: wrangler queues create ${consumer.queue}`,
        );
      }
    }
    const provision = (list: string[], names: (string | undefined)[], what: string) => {
      for (const n of names) {
        if (n && !list.includes(n)) {
          list.push(n);
          console.log(`🌀 Creating new ${what} "${n}"...`);
        }
      }
    };
    provision(state.queues, [...producers], "Queue");
    provision(
      state.r2,
      c.r2_buckets.map((b) => b.bucket_name as string | undefined),
      "R2 Bucket",
    );
    for (const d of c.d1_databases) {
      if (d.database_name && !state.d1.some((x) => x.name === d.database_name)) {
        state.d1.push({ name: d.database_name, uuid: randomUUID() });
        console.log(`🌀 Creating new D1 Database "${d.database_name}"...`);
      }
    }
    // The deployed version's vars: wrangler.toml's, then each `--var NAME:value` (the later wins).
    const vars: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.vars ?? {}))
      if (typeof value === "string") vars[name] = value;
    for (const [i, arg] of argv.entries()) {
      if (argv[i - 1] !== "--var") continue;
      const at = arg.indexOf(":");
      vars[arg.slice(0, at)] = arg.slice(at + 1);
    }
    state.deployments.push({ worker: c.name ?? "", env: envName(), vars });
    console.log(`Uploaded ${c.name}\nDeployed ${c.name} triggers\n  https://${c.name}.example.workers.dev`);
    return;
  }
  fail(`✘ [ERROR] the fake wrangler does not know: wrangler ${argv.join(" ")}`);
}

await run();
save();
