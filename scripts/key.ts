/**
 * npm run key -- create --name NAME --scopes read,write [--remote] [--env staging]
 * npm run key -- list [--remote] [--env staging]
 * npm run key -- revoke --id N [--remote] [--env staging]
 *
 * Manages API keys in the local D1 database (default) or the deployed one (--remote), of
 * production or of another wrangler.toml environment (--env). Only the
 * SHA-256 hash of a secret is stored; `create` prints the secret once, on stdout alone.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { sha256Hex } from "../src/lib/sha256.ts";
import { displayPrefix } from "../src/seed/keys.ts";
import { sqlLiteral } from "../src/seed/sql.ts";
import { applyLocalMigrations } from "./lib/local-db.ts";
import { d1Query, useEnvironment, WranglerError } from "./lib/wrangler.ts";

const SCOPES = ["read", "write", "admin"] as const;
const NAME_MAX_LENGTH = 100;

const USAGE = `Usage:
  npm run key -- create --name NAME --scopes SCOPES [--remote] [--env ENV]
  npm run key -- list [--json] [--remote] [--env ENV]
  npm run key -- revoke --id ID [--remote] [--env ENV]

  --name NAME       what the key is for (at most ${NAME_MAX_LENGTH} characters), e.g. "ci" or "erp-sync"
  --scopes SCOPES   comma-separated, from: ${SCOPES.join(", ")}
                    (read: every GET; write: catalog, pricing, reviews and bulk writes; admin: webhooks)
  --id ID           the key's id, as shown by list
  --remote          the deployed D1 database instead of the local one (.wrangler/state)
  --env ENV         the database of that wrangler.toml environment (e.g. staging), not production's

create prints the secret once; only its SHA-256 hash is stored, so it cannot be shown again.
A revoked key stops working within 30 seconds (API instances cache keys that long).`;

class UsageError extends Error {}

/** A new secret: `sfk_` + 32 random bytes, base64url. */
const generateSecret = () => `sfk_${randomBytes(32).toString("base64url")}`;

function parseScopes(raw: string | undefined): string[] {
  if (!raw?.trim())
    throw new UsageError(`--scopes is required (comma-separated, from: ${SCOPES.join(", ")}).`);
  const given = raw.split(",").map((s) => s.trim().toLowerCase());
  const unknown = given.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.map((s) => `'${s}'`).join(", ")}. Valid scopes: ${SCOPES.join(", ")}.`,
    );
  }
  return SCOPES.filter((s) => given.includes(s));
}

function parseName(raw: string | undefined): string {
  const name = raw?.trim() ?? "";
  if (!name) throw new UsageError("--name is required.");
  if (name.length > NAME_MAX_LENGTH)
    throw new UsageError(`--name is longer than ${NAME_MAX_LENGTH} characters.`);
  return name;
}

function parseId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`--id must be a positive integer${raw ? `, got '${raw}'` : ""}.`);
  }
  return Number(raw);
}

const where = (target: "local" | "remote") => (target === "remote" ? "remote database" : "local database");

async function create(target: "local" | "remote", name: string, scopes: string[]) {
  const secret = generateSecret();
  const values = [name, displayPrefix(secret), await sha256Hex(secret), JSON.stringify(scopes)].map(
    sqlLiteral,
  );
  const [row] = d1Query<{ id: number }>(
    target,
    `INSERT INTO api_keys (name, prefix, key_hash, scopes) VALUES (${values.join(", ")}) RETURNING id`,
  );
  console.error(
    `Created API key ${row?.id} '${name}' with scopes ${scopes.join(", ")} in the ${where(target)}.`,
  );
  console.error("Its secret follows; it is shown only this once, so store it now:");
  console.log(secret);
}

interface KeyRow {
  id: number;
  name: string;
  prefix: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function list(target: "local" | "remote", asJson: boolean) {
  // Never the hash: listings show the display prefix only.
  const rows = d1Query<KeyRow>(
    target,
    "SELECT id, name, prefix, scopes, created_at, last_used_at, revoked_at FROM api_keys ORDER BY id",
  );
  const keys = rows.map((r) => ({ ...r, scopes: JSON.parse(r.scopes) as string[] }));
  if (asJson) {
    console.log(JSON.stringify(keys, null, 2));
    return;
  }
  if (keys.length === 0) {
    console.log(
      `No API keys in the ${where(target)}. Create one with: npm run key -- create --name NAME --scopes read`,
    );
    return;
  }
  const table = [
    ["ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "STATUS"],
    ...keys.map((k) => [
      String(k.id),
      k.name,
      `${k.prefix}…`,
      k.scopes.join(","),
      k.created_at,
      k.last_used_at ?? "never",
      k.revoked_at ? `revoked ${k.revoked_at}` : "active",
    ]),
  ];
  const widths = table[0]?.map((_, c) => Math.max(...table.map((row) => row[c]?.length ?? 0))) ?? [];
  for (const row of table)
    console.log(
      row
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join("  ")
        .trimEnd(),
    );
}

function revoke(target: "local" | "remote", id: number): number {
  const [revoked] = d1Query<{ id: number; name: string; revoked_at: string }>(
    target,
    `UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ${id} AND revoked_at IS NULL RETURNING id, name, revoked_at`,
  );
  if (revoked) {
    console.log(
      `Revoked API key ${id} '${revoked.name}' at ${revoked.revoked_at} (effective within 30 seconds).`,
    );
    return 0;
  }
  const [existing] = d1Query<{ name: string; revoked_at: string }>(
    target,
    `SELECT name, revoked_at FROM api_keys WHERE id = ${id}`,
  );
  if (existing) {
    console.log(`API key ${id} '${existing.name}' was already revoked at ${existing.revoked_at}.`);
    return 0;
  }
  console.error(`No API key with id ${id} in the ${where(target)}. See: npm run key -- list`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      id: { type: "string" },
      remote: { type: "boolean" },
      env: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  const [command, ...extra] = positionals;
  if (values.help || command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (!command) throw new UsageError("A command is required: create, list or revoke.");
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra.join(" ")}`);
  const allowed: Record<string, string[]> = {
    create: ["name", "scopes"],
    list: ["json"],
    revoke: ["id"],
  };
  const options = allowed[command];
  if (!options) throw new UsageError(`Unknown command '${command}'. Commands: create, list, revoke.`);
  for (const option of ["name", "scopes", "id", "json"]) {
    if (values[option as keyof typeof values] !== undefined && !options.includes(option)) {
      throw new UsageError(`--${option} does not apply to '${command}'.`);
    }
  }
  // Validate everything before touching a database.
  const target = values.remote ? "remote" : "local";
  if (values.env !== undefined) useEnvironment(values.env);
  if (command === "create") {
    const name = parseName(values.name);
    const scopes = parseScopes(values.scopes);
    if (target === "local") applyLocalMigrations({ quiet: true });
    await create(target, name, scopes);
    return 0;
  }
  if (command === "revoke") {
    const id = parseId(values.id);
    if (target === "local") applyLocalMigrations({ quiet: true });
    return revoke(target, id);
  }
  if (target === "local") applyLocalMigrations({ quiet: true });
  list(target, values.json === true);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof WranglerError ? error.message : error);
    process.exit(1);
  },
);
