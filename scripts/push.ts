/**
 * npm run push -- <file> --kind products|variants|price-list-prices|link-identifiers
 *   --match-by <value> [--price-list <id>] [--mode upsert|delete] [--dry-run] [--base-url <url>]
 * npm run push -- --help
 *
 * Pushes a JSONL, JSON array or CSV file of any size through the bulk operations
 * (docs/push-cli.md). The API key comes from STOREFRONT_API_KEY, the service's origin from
 * --base-url or STOREFRONT_BASE_URL. Exit codes: 0 every record
 * succeeded, 1 some failed (see <file>.errors.jsonl), 2 usage, authentication or network errors.
 */
import { StorefrontApiError } from "../client/src/index.ts";
import { parsePushArgs, USAGE, UsageError, wantsHelp } from "./lib/push/args.ts";
import { CellError } from "./lib/push/csv-record.ts";
import { push } from "./lib/push/run.ts";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    console.log(USAGE);
    return 0;
  }
  try {
    return await push(parsePushArgs(argv, process.env));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
    } else if (error instanceof StorefrontApiError || error instanceof CellError) {
      console.error(error.message);
    } else {
      console.error(`push failed: ${error instanceof Error ? `${error.message}${causeOf(error)}` : error}`);
    }
    return 2;
  }
}

const causeOf = (error: Error) => (error.cause instanceof Error ? ` (${error.cause.message})` : "");

main().then((code) => process.exit(code));
