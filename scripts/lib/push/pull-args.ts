import { parseArgs } from "node:util";
import { DEFAULT_BASE_URL, UsageError } from "./args.ts";

export const PULL_KINDS = ["products", "variants"] as const;
const FORMATS = ["jsonl", "csv"] as const;

/** What to pull: an export's file, or the change feed after a cursor. */
export type PullArgs = ExportPullArgs | ChangesPullArgs;

export interface ChangesPullArgs {
  mode: "changes";
  /** A cursor from an earlier read; absent: the oldest change kept. */
  after?: string;
  /** Only these resources' entries (comma-separated as the query parameter takes them). */
  resources?: string;
  baseUrl: string;
  apiKey: string;
}

export interface ExportPullArgs {
  mode: "export";
  kind: (typeof PULL_KINDS)[number];
  /** The products list's filters, each name's values joined with "," as a repeated query parameter. */
  filters: Record<string, string>;
  format: (typeof FORMATS)[number];
  out: string;
  baseUrl: string;
  apiKey: string;
}

export const PULL_USAGE = `Usage: npm run pull -- --kind products|variants [--filter <name>=<value> …] [--format jsonl|csv]
         [--out <file>] [--base-url <url>]
       npm run pull -- --changes [--after <cursor>] [--resources <name>,…] [--base-url <url>]
--filter: a filter of GET /api/v1/products with its query-string value (--filter brand_ids=1,2
  --filter status=published); repeating a name adds values. --format: jsonl (default) or csv, the
  layout npm run push reads back. --out: the file to write (default <kind>.<format>). --base-url
  defaults to STOREFRONT_BASE_URL, else ${DEFAULT_BASE_URL}. The API key is read from STOREFRONT_API_KEY.
--changes: print the change feed (GET /api/v1/changes) after --after (default: the oldest change kept),
  one JSON entry per line on stdout, then the cursor to continue from on stderr ("next cursor: …").
  --resources: only these resources (brands, categories, suppliers, products, variants, price_lists, reviews).
--help, -h: print this text.`;

/** The command line and environment as an export to pull, or a UsageError saying what is wrong. */
export function parsePullArgs(argv: string[], env: NodeJS.ProcessEnv): PullArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const apiKey = env.STOREFRONT_API_KEY;
  if (!apiKey) throw new UsageError("set STOREFRONT_API_KEY to an API key with read scope");
  const baseUrl = (values["base-url"] ?? (env.STOREFRONT_BASE_URL || DEFAULT_BASE_URL)).replace(/\/+$/, "");
  if (values.changes) {
    const exportOnly = (["kind", "filter", "format", "out"] as const).filter(
      (name) => values[name] !== undefined,
    );
    if (exportOnly.length > 0) throw new UsageError(`--changes does not take --${exportOnly.join(", --")}`);
    return {
      mode: "changes",
      ...(values.after !== undefined ? { after: values.after } : {}),
      ...(values.resources !== undefined ? { resources: values.resources } : {}),
      baseUrl,
      apiKey,
    };
  }
  if (values.after !== undefined || values.resources !== undefined)
    throw new UsageError("--after and --resources go with --changes");
  const kind = PULL_KINDS.find((k) => k === values.kind);
  if (!kind) throw new UsageError(`--kind must be one of ${PULL_KINDS.join(", ")}`);
  const format = FORMATS.find((f) => f === (values.format ?? "jsonl"));
  if (!format) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
  const filters: Record<string, string> = {};
  for (const filter of values.filter ?? []) {
    const at = filter.indexOf("=");
    if (at <= 0) throw new UsageError(`--filter takes <name>=<value>, not "${filter}"`);
    const name = filter.slice(0, at);
    const value = filter.slice(at + 1);
    filters[name] = filters[name] === undefined ? value : `${filters[name]},${value}`;
  }
  return { mode: "export", kind, filters, format, out: values.out ?? `${kind}.${format}`, baseUrl, apiKey };
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: false,
    options: {
      kind: { type: "string" },
      filter: { type: "string", multiple: true },
      format: { type: "string" },
      out: { type: "string" },
      "base-url": { type: "string" },
      changes: { type: "boolean" },
      after: { type: "string" },
      resources: { type: "string" },
    },
  });
