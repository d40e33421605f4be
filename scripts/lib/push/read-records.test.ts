/** The readers and the splitter, on small files (no server). */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { splitIntoParts } from "./parts.ts";
import { formatOf, type InputRecord, readRecords } from "./read-records.ts";

const dir = mkdtempSync(join(tmpdir(), "storefront-push-read-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string, text: string, schema = "ProductBulkRecord") {
  const file = join(dir, name);
  writeFileSync(file, text);
  const out: InputRecord[] = [];
  for await (const r of readRecords(file, formatOf(file), schema)) out.push(r);
  return out;
}

test("JSONL: blank lines are skipped but counted; bad lines are reported at their line", async () => {
  const records = await read("a.jsonl", '{"id":1}\n\n[1]\n{oops\r\n{"id":2}');
  assert.deepEqual(
    records.map((r) => [r.position, "record" in r ? r.record : r.error.code]),
    [
      [1, { id: 1 }],
      [3, "NOT_AN_OBJECT"],
      [4, "INVALID_JSON"],
      [5, { id: 2 }],
    ],
  );
});

test("JSON array: elements are streamed with their number, brackets and commas inside strings kept", async () => {
  const records = await read("a.json", ' [ {"a":"x],{\\"y"}, {"b":[1,{"c":2}]} ,{"d":null}]\n');
  assert.deepEqual(records, [
    { position: 1, record: { a: 'x],{"y' } },
    { position: 2, record: { b: [1, { c: 2 }] } },
    { position: 3, record: { d: null } },
  ]);
});

test("CSV: dotted headers nest, cells take the documented type, empty cells are left out", async () => {
  const records = await read(
    "a.csv",
    [
      "internal_id,brand_id,category_ids,model_code,translations.es-ES.name,variants.0.ean,variants.0.warehouse_stock,variants.1.sku",
      'P1,7,"[4,2]",null,"Camiseta ""Lumen""",8400000001618,12,S-2',
      'P2,,[],,"Multi\nline",,,',
      "P3,seven,,,,,,",
    ].join("\n"),
  );
  assert.deepEqual(records, [
    {
      position: 2,
      record: {
        internal_id: "P1",
        brand_id: 7,
        category_ids: [4, 2],
        model_code: null,
        translations: { "es-ES": { name: 'Camiseta "Lumen"' } },
        variants: [{ ean: "8400000001618", warehouse_stock: 12 }, { sku: "S-2" }],
      },
    },
    {
      position: 4,
      record: { internal_id: "P2", category_ids: [], translations: { "es-ES": { name: "Multi\nline" } } },
    },
    { position: 5, error: { code: "INVALID_CSV_CELL", message: 'brand_id: "seven" is not a number' } },
  ]);
});

test("parts stay within the byte limit, wrapper and options included, and keep each record's position", async () => {
  const records = Array.from({ length: 50 }, (_, i) => ({
    position: i + 1,
    record: { internal_id: `é-${i}` },
  }));
  async function* input() {
    yield* records;
  }
  const target = {
    path: "/api/v1/products/bulk",
    itemsKey: "products",
    options: { match_by: "internal_id" },
  };
  const parts = [];
  for await (const part of splitIntoParts(input(), target, 200, () => {})) parts.push(part);
  assert.ok(parts.length > 3);
  for (const part of parts) {
    assert.ok(Buffer.byteLength(part.body) <= 200, part.body);
    assert.deepEqual(JSON.parse(part.body), { products: part.records, options: target.options });
  }
  assert.deepEqual(
    parts.flatMap((p) => p.positions),
    records.map((r) => r.position),
  );
  const again = [];
  for await (const part of splitIntoParts(input(), target, 200, () => {})) again.push(part.idempotencyKey);
  assert.deepEqual(
    again,
    parts.map((p) => p.idempotencyKey),
  );
  assert.equal(new Set(again).size, again.length);
});
