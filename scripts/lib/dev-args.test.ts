/**
 * `npm run dev` gives the Worker its own address as `PUBLIC_BASE_URL`, so image URLs point at the
 * port it listens on and never at the Host a request names.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { devServerArgs } from "./dev-args.ts";

/** The `--var` values of a wrangler command line, by name. */
const vars = (args: string[]) =>
  Object.fromEntries(
    args.flatMap((arg, i) => {
      if (args[i - 1] !== "--var") return [];
      const at = arg.indexOf(":");
      return [[arg.slice(0, at), arg.slice(at + 1)]];
    }),
  );

test("dev passes the origin of its default port as PUBLIC_BASE_URL and listens there", () => {
  const { args, origin } = devServerArgs([]);
  assert.equal(origin, "http://localhost:8787");
  assert.equal(vars(args).PUBLIC_BASE_URL, "http://localhost:8787");
  assert.deepEqual(args.slice(-2), ["--port", "8787"]);
});

test("dev passes the origin of the port given with --port (both spellings)", () => {
  for (const argv of [["--port", "9123"], ["--port=9123"]]) {
    const { args } = devServerArgs(argv);
    assert.equal(vars(args).PUBLIC_BASE_URL, "http://localhost:9123", argv.join(" "));
    assert.equal(args.filter((a) => a.startsWith("--port")).length, 1, "the port is not passed twice");
  }
});

test("dev passes an https origin when wrangler serves https (--local-protocol https)", () => {
  const { args } = devServerArgs(["--local-protocol", "https", "--port", "8443"]);
  assert.equal(vars(args).PUBLIC_BASE_URL, "https://localhost:8443");
});

test("a PUBLIC_BASE_URL the developer passes comes after dev's own, so it wins", () => {
  const { args } = devServerArgs(["--var", "PUBLIC_BASE_URL:https://tunnel.example"]);
  assert.equal(vars(args).PUBLIC_BASE_URL, "https://tunnel.example");
});

test("--no-edge-cache turns the local edge cache off and is not handed to wrangler", () => {
  const { args } = devServerArgs(["--no-edge-cache", "--port", "9000"]);
  assert.equal(vars(args).EDGE_CACHE, "off");
  assert.ok(!args.includes("--no-edge-cache"));
  assert.equal(vars(devServerArgs([]).args).EDGE_CACHE, undefined, "on by default");
});
