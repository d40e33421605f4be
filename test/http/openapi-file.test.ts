import { describe, expect, it } from "vitest";
import committed from "../../openapi.json" with { type: "json" };
import { OPENAPI_PATH } from "../../src/docs/docs.routes.ts";
import { api } from "../support/api.ts";

describe("committed openapi.json", () => {
  it("equals the served document but for the server, which the file leaves to a variable", async () => {
    const res = await api(OPENAPI_PATH, { key: null });
    expect(res.status).toBe(200);
    const served = res.json;
    expect(served.servers).toEqual([expect.objectContaining({ url: "https://api.test" })]);
    expect(committed.servers).toEqual([
      expect.objectContaining({ url: "{origin}", variables: { origin: expect.any(Object) } }),
    ]);
    // Text, not deep equality: the file's key order is the served one's too.
    const text = (doc: object) => JSON.stringify(doc, null, 2);
    expect(
      text({ ...served, servers: committed.servers }),
      "openapi.json is stale: run `npm run openapi` and commit it",
    ).toBe(text(committed));
  });
});
