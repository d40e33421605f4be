import { env, exports } from "cloudflare:workers";
import { sha256Hex } from "../../src/http/api-keys.ts";
import { SUPPORTED_LOCALES } from "../../src/lib/locales.ts";

export const KEYS = {
  all: "sfk_test_all_scopes",
  read: "sfk_test_read_only",
  write: "sfk_test_write_only",
  admin: "sfk_test_admin_only",
  revoked: "sfk_test_revoked",
} as const;

const SCOPES: Record<keyof typeof KEYS, string[]> = {
  all: ["read", "write", "admin"],
  read: ["read"],
  write: ["write"],
  admin: ["admin"],
  revoked: ["read", "write", "admin"],
};

/** Store and API keys every test file needs (storage is isolated per file). */
export async function seedTestBasics() {
  const statements = [
    env.DB.prepare(
      `INSERT OR IGNORE INTO store (id, primary_locale, enabled_locales, applicable_countries, return_policy_country, return_days)
       VALUES (1, 'es-ES', ?, '["ES","FR"]', 'ES', 30)`,
    ).bind(JSON.stringify(SUPPORTED_LOCALES)),
    ...["es-ES", "en-GB", "fr-FR", "de-DE"].map((locale) =>
      env.DB.prepare("INSERT OR IGNORE INTO store_translations (locale, name, domain) VALUES (?, ?, ?)").bind(
        locale,
        `Test shop ${locale}`,
        `${locale.slice(0, 2)}.shop.test`,
      ),
    ),
  ];
  for (const [name, secret] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    statements.push(
      env.DB.prepare(
        "INSERT OR IGNORE INTO api_keys (name, prefix, key_hash, scopes, revoked_at) VALUES (?, ?, ?, ?, ?)",
      ).bind(
        name,
        secret.slice(0, 10),
        await sha256Hex(secret),
        JSON.stringify(SCOPES[name]),
        name === "revoked" ? "2026-01-01T00:00:00Z" : null,
      ),
    );
  }
  await env.DB.batch(statements);
}

export interface ApiOptions {
  method?: string;
  body?: unknown;
  key?: keyof typeof KEYS | null;
  headers?: Record<string, string>;
  /** The origin the request is addressed to (its `Host`); `https://api.test` unless told. */
  origin?: string;
}

/** Calls the Worker's own fetch handler, as a client would over HTTP. */
export async function api(path: string, options: ApiOptions = {}) {
  const headers = new Headers(options.headers);
  const key = options.key === undefined ? "all" : options.key;
  if (key) headers.set("authorization", `Bearer ${KEYS[key]}`);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body =
      typeof options.body === "string" || options.body instanceof Uint8Array
        ? options.body
        : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const worker = (exports as unknown as { default: Fetcher }).default;
  const response = await worker.fetch(
    new Request(`${options.origin ?? "https://api.test"}${path}`, {
      method: options.method ?? "GET",
      headers,
      body,
    }),
  );
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

let counter = 0;
/** A value unique within the test run, for internal ids and names. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;
