/**
 * The documentation a newcomer reads: every relative link (and its #anchor) resolves, the README
 * stays a front door, and what it tells a new user to type is true. Runs in Node (`node --test`).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, it } from "node:test";
import { PROJECT_ROOT } from "../lib/wrangler.ts";

const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  "client/README.md",
  ...readdirSync(join(PROJECT_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), "utf8");

/** The text outside fenced code blocks, inline code and HTML comments (where no link is a link). */
const prose = (markdown: string) =>
  markdown
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/`[^`\n]*`/g, "")
    .replace(/<!--[\s\S]*?-->/g, "");

/** GitHub's anchors for a document's headings (`## Conventions (all resources)` → `conventions-all-resources`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading = ""] of markdown
    .replace(/^```[\s\S]*?^```/gm, "")
    .matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The relative links of a document that do not resolve: a missing file, or a missing heading. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const [, target = ""] of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path = "", anchor] = target.split("#");
    const resolved = path === "" ? file : relative(PROJECT_ROOT, join(PROJECT_ROOT, dirname(file), path));
    if (!existsSync(join(PROJECT_ROOT, resolved))) {
      broken.push(`${file}: ${target} (no ${resolved})`);
    } else if (anchor !== undefined && !anchors(read(resolved)).has(anchor)) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

describe("the documentation", () => {
  it("links only to files and headings that exist", () => {
    assert.deepEqual(DOCS.flatMap(brokenLinks), []);
  });

  it("says what was measured or decided, never which ticket asked for it", () => {
    const mentions = DOCS.flatMap((file) =>
      [...read(file).matchAll(/\bissues? #?\d+/gi)].map((m) => `${file}: ${m[0]}`),
    );
    assert.deepEqual(mentions, []);
  });
});

describe("README.md", () => {
  const readme = read("README.md");

  it("is a front door: at most 300 lines", () => {
    assert.ok(readme.split("\n").length <= 300, `${readme.split("\n").length} lines`);
  });

  it("gives performance at a glance in at most 10 lines, without a date, and links to the rest", () => {
    const start = readme.indexOf("\n## Performance at a glance\n");
    assert.ok(start >= 0, "README has a Performance at a glance section");
    const section = readme
      .slice(start + 1, readme.indexOf("\n## ", start + 1))
      .split("\n")
      .slice(1);
    assert.ok(section.filter((line) => line.trim() !== "").length <= 10, section.join("\n"));
    assert.doesNotMatch(section.join("\n"), /\b20\d\d-\d\d-\d\d\b/);
    assert.match(section.join("\n"), /\]\(docs\/performance\.md\)/);
  });

  it("documents --port and writes the default port once", () => {
    assert.match(readme, /npm run dev -- --port \d+/);
    assert.equal(readme.match(/8787/g)?.length, 1);
  });

  it("runs the client example through npm run example (any Node on PATH) and says a consumer needs ESM", () => {
    assert.match(readme, /npm run example/);
    assert.doesNotMatch(readme, /^node client\/examples/m);
    assert.match(readme, /"type": "module"/);
    assert.match(read("client/README.md"), /"type": "module"/);
  });

  it("quotes TypeScript only from the example that npm test runs twice", () => {
    const example = read("client/examples/quickstart.ts");
    for (const file of ["README.md", "client/README.md"]) {
      const blocks = [...read(file).matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
      assert.ok(blocks.length > 0, file);
      for (const block of blocks) assert.ok(example.includes(block), `${file} quotes:\n${block}`);
    }
  });
});
