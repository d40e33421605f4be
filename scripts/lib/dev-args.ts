/**
 * The `wrangler dev` command line of `npm run dev`: local settings as `--var`s, then the developer's
 * own options (which win), and the port when none was given.
 */

/** Seconds without progress before a local job is re-driven (the deployed default is 300). */
const LOCAL_STALL_SECONDS = 30;
const DEFAULT_PORT = "8787";

/** The value of `--name VALUE` or `--name=VALUE` in argv, if given. */
export const option = (argv: string[], name: string): string | undefined => {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const arg = argv[i] as string;
  return arg.includes("=") ? arg.slice(name.length + 1) : argv[i + 1];
};

/**
 * The arguments for wrangler and the address it serves on. The Worker gets that address as
 * `PUBLIC_BASE_URL`, so image URLs point at this server whatever a request's Host says.
 */
export function devServerArgs(given: string[]): { args: string[]; port: string; origin: string } {
  // `--no-edge-cache` is ours, not wrangler's: it turns the local edge cache off.
  const argv = given.filter((a) => a !== "--no-edge-cache");
  const port = option(argv, "--port") ?? DEFAULT_PORT;
  const protocol = option(argv, "--local-protocol") === "https" ? "https" : "http";
  const origin = `${protocol}://localhost:${port}`;
  const args = [
    "dev",
    "--var",
    "ENVIRONMENT:development",
    "--var",
    `JOB_STALL_SECONDS:${LOCAL_STALL_SECONDS}`,
    "--var",
    `PUBLIC_BASE_URL:${origin}`,
    ...(argv.length < given.length ? ["--var", "EDGE_CACHE:off"] : []),
    "--test-scheduled",
    ...argv,
  ];
  if (option(argv, "--port") === undefined) args.push("--port", port);
  return { args, port, origin };
}
