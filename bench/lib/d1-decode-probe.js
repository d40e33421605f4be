// The benchmark's D1-decode probe (bench/lib/d1-decode.ts), served by its own `wrangler dev`: times
// in workerd what the D1 binding does with an answer before the Worker's `await` resumes. The body
// POSTed is the answer of one round trip as local D1 sends it (statements' results as columns and
// rows); each iteration decodes the bytes to text, parses it, and turns each row into an object keyed
// by column name with `Object.fromEntries`, as workerd's D1 binding does for `batch`, `all` and
// `first` (src/cloudflare/internal/d1-api.ts in workerd). Answers GET with 200 (the readiness check).
const decoder = new TextDecoder();

function asObjects(statement) {
  const results = statement.results;
  if (!results || Array.isArray(results)) return statement;
  const { columns, rows } = results;
  return {
    ...statement,
    results: rows.map((row) => Object.fromEntries(row.map((cell, i) => [columns[i], cell]))),
  };
}

export default {
  async fetch(request) {
    if (request.method !== "POST") return new Response("d1 decode probe");
    const bytes = new Uint8Array(await request.arrayBuffer());
    const iterations = Number(new URL(request.url).searchParams.get("iterations") ?? "100");
    let rows = 0;
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const answer = JSON.parse(decoder.decode(bytes));
      rows = 0;
      for (const statement of answer) rows += asObjects(statement).results?.length ?? 0;
    }
    return Response.json({ ms: (performance.now() - started) / iterations, iterations, rows });
  },
};
