/**
 * npm run pull -- --kind products|variants [--filter <name>=<value> …] [--format jsonl|csv]
 *   [--out <file>] [--base-url <url>]
 * npm run pull -- --help
 *
 * Exports the catalog through an export job and downloads its file (docs/exports.md): records in
 * the shape `npm run push` sends back. The API key comes from STOREFRONT_API_KEY, the service's
 * origin from --base-url or STOREFRONT_BASE_URL. Exit codes: 0 the export is done and written, 1 the
 * job ended otherwise, 2 usage, authentication or network errors.
 */
import { StorefrontApiError } from "../client/src/index.ts";
import { UsageError, wantsHelp } from "./lib/push/args.ts";
import { pull } from "./lib/push/pull.ts";
import { PULL_USAGE, parsePullArgs } from "./lib/push/pull-args.ts";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    console.log(PULL_USAGE);
    return 0;
  }
  try {
    return await pull(parsePullArgs(argv, process.env));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${PULL_USAGE}`);
    } else if (error instanceof StorefrontApiError) {
      console.error(error.message);
    } else {
      console.error(`pull failed: ${error instanceof Error ? error.message : error}`);
    }
    return 2;
  }
}

main().then((code) => process.exit(code));
