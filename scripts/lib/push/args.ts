import { parseArgs } from "node:util";
import { isKindName, KINDS, type KindName } from "./kinds.ts";

/** The largest bulk body the service accepts (10 MiB), wrapper and options included. */
export const MAX_BODY_BYTES = 10_485_760;

export interface PushArgs {
  file: string;
  kind: KindName;
  /** The operation's `options` as sent with every part. */
  options: Record<string, string | boolean>;
  priceList?: string;
  baseUrl: string;
  apiKey: string;
  maxPartBytes: number;
}

/** Where `npm run dev` serves, unless `--base-url` or STOREFRONT_BASE_URL says otherwise. */
export const DEFAULT_BASE_URL = "http://localhost:8787";

export const USAGE = `Usage: npm run push -- <file> --kind products|variants|price-list-prices|link-identifiers
         --match-by <value> [--price-list <id>] [--mode upsert|delete] [--dry-run] [--base-url <url>]
--match-by: products id|internal_id; variants id|internal_id|ean|sku_supplier; price-list-prices
  variant_id|variant_internal_id|ean|sku_supplier (with --price-list, --mode upsert by default); none for
  link-identifiers. --base-url defaults to STOREFRONT_BASE_URL, else ${DEFAULT_BASE_URL}.
<file>: JSONL, a JSON array (.json) or CSV (.csv) with a header row. The API key is read from STOREFRONT_API_KEY.
--help, -h: print this text.`;

/** Whether the command line asks for the usage text (then nothing else is checked). */
export const wantsHelp = (argv: string[]) => argv.some((a) => a === "--help" || a === "-h");

export class UsageError extends Error {}

/** The command line and environment as a push to make, or a UsageError saying what is wrong. */
export function parsePushArgs(argv: string[], env: NodeJS.ProcessEnv): PushArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("give exactly one input file");
  const kindName = values.kind ?? "";
  if (!isKindName(kindName)) throw new UsageError(`--kind must be one of ${Object.keys(KINDS).join(", ")}`);
  const kind: { matchBy: readonly string[]; modes?: readonly string[]; path: string } = KINDS[kindName];
  const options: Record<string, string | boolean> = {};
  if (kind.matchBy.length > 0) {
    if (!values["match-by"] || !kind.matchBy.includes(values["match-by"]))
      throw new UsageError(`--match-by must be one of ${kind.matchBy.join(", ")} for --kind ${kindName}`);
    options.match_by = values["match-by"];
  } else if (values["match-by"]) {
    throw new UsageError(`--kind ${kindName} takes no --match-by (each record names its own identifiers)`);
  }
  if (kind.modes) {
    const mode = values.mode ?? "upsert";
    if (!kind.modes.includes(mode)) throw new UsageError(`--mode must be one of ${kind.modes.join(", ")}`);
    options.mode = mode;
  } else if (values.mode) {
    throw new UsageError(`--mode applies to --kind price-list-prices only`);
  }
  if (kind.path.includes("{id}") !== (values["price-list"] !== undefined))
    throw new UsageError("--price-list <id> is required with --kind price-list-prices, and only there");
  if (values["price-list"] !== undefined && !/^[1-9]\d*$/.test(values["price-list"]))
    throw new UsageError("--price-list must be a price list id");
  if (values["dry-run"]) options.dry_run = true;
  const apiKey = env.STOREFRONT_API_KEY;
  if (!apiKey) throw new UsageError("set STOREFRONT_API_KEY to an API key with write scope");
  const maxPartBytes = Number(values["max-part-bytes"] ?? MAX_BODY_BYTES);
  if (!Number.isInteger(maxPartBytes) || maxPartBytes < 1024 || maxPartBytes > MAX_BODY_BYTES)
    throw new UsageError(`--max-part-bytes must be an integer from 1024 to ${MAX_BODY_BYTES}`);
  return {
    file,
    kind: kindName,
    options,
    priceList: values["price-list"],
    baseUrl: (values["base-url"] ?? (env.STOREFRONT_BASE_URL || DEFAULT_BASE_URL)).replace(/\/+$/, ""),
    apiKey,
    maxPartBytes,
  };
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      kind: { type: "string" },
      "match-by": { type: "string" },
      "price-list": { type: "string" },
      mode: { type: "string" },
      "dry-run": { type: "boolean" },
      "base-url": { type: "string" },
      // Not in the usage text: lets the tests split a small file into several jobs.
      "max-part-bytes": { type: "string" },
    },
  });
