import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { productsPayload, variantsPayload } from "./bulk.ts";
import { openDb } from "./database.ts";
import { parseServerTiming } from "./load.ts";
import { log } from "./log.ts";

/**
 * Target: a worst-case 10 MB bulk body of any shape is answered within 1 s, and a
 * read sent meanwhile is not held up longer than that. Each shape is POSTed to the real Worker
 * under `wrangler dev` (both bulk routes), timed from the request to the end of the answer, while
 * GET /api/v1/store is sent again and again until the POST has answered; every job accepted is
 * canceled at once so that the server does not spend the rest of the run processing it.
 */

/** Just under the bulk body limit (10 MiB = 10,485,760 bytes). */
const SHAPE_BYTES = 10 * 1024 * 1024 - 64;
export const ACCEPT_TARGET_MS = 1000;

interface AcceptShapeResult {
  shape: string;
  title: string;
  route: string;
  bytes: number;
  /** What the body holds (levels, keys, records…), for the report. */
  detail: string;
  expectStatus: number;
  statuses: number[];
  /** Per run: from sending the POST until its answer was read. */
  acceptMs: number[];
  p50Ms: number;
  /** Server-Timing `app;dur` of each answer: time inside the Worker. */
  appMs: (number | null)[];
  /** The slowest GET /api/v1/store sent while each POST was in flight, and how many were sent. */
  readMaxMs: number[];
  reads: number[];
  /** Status of POST /jobs/{id}/cancel per accepted run (409: the job had already ended). */
  cancels: number[];
  /** The first problem of a 400, as the answer gave it. */
  problem?: string;
}

export interface AcceptStage {
  measuredAt: string;
  /** Set when the stage ran alone (`--only`) into the results of an earlier run. */
  run?: string;
  runs: number;
  targetMs: number;
  /** GET /api/v1/store with nothing else in flight (median of 20). */
  idleReadMs: number;
  /** 1-minute load average at the start and the end of the stage (the machine is shared). */
  loadAverage: [number, number];
  shapes: AcceptShapeResult[];
}

interface Route {
  path: string;
  key: "variants" | "products";
  options: string;
}

const ROUTES: Route[] = [
  { path: "/api/v1/variants/bulk", key: "variants", options: '{"match_by":"id"}' },
  { path: "/api/v1/products/bulk", key: "products", options: '{"match_by":"internal_id"}' },
];

interface Shape {
  key: string;
  title: string;
  expectStatus: number;
  build: (route: Route, ctx: { variantIds: number[] }) => { body: string; detail: string };
}

const int = (n: number) => n.toLocaleString("en-US");

/** `{"options":…,"<key>":[<records>]}` with `records` filling the rest of SHAPE_BYTES. */
const envelope = (route: Route) => {
  const head = `{"options":${route.options},"${route.key}":[`;
  const tail = "]}";
  return { head, tail, room: SHAPE_BYTES - head.length - tail.length };
};

/** The record's own identifying member (variants are matched by id). */
const idMember = (route: Route) => (route.key === "variants" ? '"id":1,' : '"internal_id":"SHAPE-1",');

/** A string of about `length` bytes mixing ASCII, 2- to 4-byte UTF-8 and every kind of escape. */
function mixedString(length: number): string {
  const unit = 'abc é ✓ 😀 \\n\\t\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 ';
  const unitBytes = Buffer.byteLength(unit);
  return unit.repeat(Math.floor(length / unitBytes));
}

/** A realistic payload of the route (the bench's generators) within `bytes`. */
function realistic(route: Route, bytes: number, variantIds: number[]) {
  if (route.key === "products") return productsPayload("SHAPE", bytes);
  // The seeded ids, repeated as often as the size needs (a small catalog has few variants).
  const ids: number[] = [];
  while (ids.length < 60_000) ids.push(...variantIds);
  return variantsPayload(ids, bytes);
}

/** The shapes of the --quick smoke run (a few seconds): one 400 early, one 400 at the end, one 202. */
const QUICK_SHAPES = ["deep", "tiny_records", "lone_surrogate"];

const SHAPES: Shape[] = [
  {
    key: "deep",
    title: "deep nesting inside one record",
    expectStatus: 400,
    build: (route) => {
      const { head, tail, room } = envelope(route);
      const open = `{${idMember(route)}"x":`;
      const levels = Math.floor((room - open.length - 1) / 2);
      return {
        body: `${head}${open}${"[".repeat(levels)}${"]".repeat(levels)}}${tail}`,
        detail: `${int(levels)} levels`,
      };
    },
  },
  {
    key: "wide",
    title: "one record with as many keys as fit",
    expectStatus: 202,
    build: (route) => {
      const { head, tail, room } = envelope(route);
      const parts = [`{${idMember(route).slice(0, -1)}`];
      let bytes = parts[0]?.length ?? 0;
      let keys = 0;
      for (;;) {
        const member = `,"k${keys}":${keys % 10}`;
        if (bytes + member.length + 1 > room) break;
        parts.push(member);
        bytes += member.length;
        keys++;
      }
      return { body: `${head}${parts.join("")}}${tail}`, detail: `${int(keys)} keys` };
    },
  },
  {
    key: "unknown_keys",
    title: "100,000 unknown top-level keys",
    expectStatus: 400,
    build: (route) => {
      const head = `{"options":${route.options},"${route.key}":[{}]`;
      const count = 100_000;
      const valueLength = Math.floor((SHAPE_BYTES - head.length - 1) / count) - `,"u099999":""`.length;
      const value = "v".repeat(valueLength);
      const parts = [head];
      for (let i = 0; i < count; i++) parts.push(`,"u${String(i).padStart(6, "0")}":"${value}"`);
      parts.push("}");
      return { body: parts.join(""), detail: `${int(count)} keys with ${valueLength}-byte strings` };
    },
  },
  {
    key: "long_string",
    title: "one record holding one ~10 MB string (ASCII)",
    expectStatus: 202,
    build: (route) => {
      const { head, tail, room } = envelope(route);
      const open = `{${idMember(route)}"name":"`;
      const length = room - open.length - 2;
      return { body: `${head}${open}${"a".repeat(length)}"}${tail}`, detail: `${int(length)} characters` };
    },
  },
  {
    key: "long_string_escapes",
    title: "one record holding one ~10 MB string (escapes, multi-byte UTF-8)",
    expectStatus: 202,
    build: (route) => {
      const { head, tail, room } = envelope(route);
      const open = `{${idMember(route)}"name":"`;
      const text = mixedString(room - open.length - 2);
      return {
        body: `${head}${open}${text}"}${tail}`,
        detail: `${int(Buffer.byteLength(text))} bytes, a third of them escapes`,
      };
    },
  },
  {
    key: "tiny_records",
    title: "many small records (`{}`)",
    expectStatus: 202,
    build: (route) => {
      const { head, tail, room } = envelope(route);
      const count = Math.floor((room + 1) / 3);
      return { body: `${head}${"{},".repeat(count - 1)}{}${tail}`, detail: `${int(count)} records` };
    },
  },
  {
    key: "realistic",
    title: "realistic payload (the bench's generator)",
    expectStatus: 202,
    build: (route, ctx) => {
      const payload = realistic(route, SHAPE_BYTES, ctx.variantIds);
      return { body: payload.body, detail: `${int(payload.records)} records` };
    },
  },
  {
    key: "lone_surrogate",
    title: "realistic payload with a lone surrogate in its last record",
    expectStatus: 400,
    build: (route, ctx) => {
      const payload = realistic(route, SHAPE_BYTES - 32, ctx.variantIds);
      const end = payload.body.lastIndexOf("}]");
      const member = ',"note":"a\\ud800b"';
      const body = `${payload.body.slice(0, end)}${member}${payload.body.slice(end)}`;
      return {
        body,
        detail: `${int(payload.records)} records, \`\\ud800\` ${int(body.length - end - 10)} bytes before the end`,
      };
    },
  },
  {
    key: "invalid_at_end",
    title: "realistic payload, invalid JSON in its last byte",
    expectStatus: 400,
    build: (route, ctx) => {
      const payload = realistic(route, SHAPE_BYTES, ctx.variantIds);
      return {
        body: `${payload.body.slice(0, -1)}]`,
        detail: `${int(payload.records)} records, last \`}\` → \`]\``,
      };
    },
  },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

export async function runAcceptShapes(o: {
  origin: string;
  secret: string;
  sqliteFile: string;
  runs: number;
  errors: string[];
  /** The --quick smoke run: three shapes, variants route only. */
  quick?: boolean;
}): Promise<AcceptStage> {
  const db = openDb(o.sqliteFile, true);
  const variantIds = (db.prepare("SELECT id FROM variants ORDER BY id").all() as { id: number }[]).map(
    (r) => r.id,
  );
  db.close();
  const loadAtStart = loadavg()[0] ?? 0;
  const auth = { authorization: `Bearer ${o.secret}` };
  const readStore = async () => {
    const t = performance.now();
    const res = await fetch(`${o.origin}/api/v1/store`, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/v1/store answered ${res.status}`);
    return performance.now() - t;
  };
  const idle: number[] = [];
  for (let i = 0; i < 20; i++) idle.push(await readStore());
  const idleReadMs = median(idle.slice(5));

  const out: AcceptShapeResult[] = [];
  for (const shape of SHAPES.filter((s) => !o.quick || QUICK_SHAPES.includes(s.key))) {
    for (const route of ROUTES.filter((r) => !o.quick || r.key === "variants")) {
      const built = shape.build(route, { variantIds });
      // Encoded once (a copy with its own ArrayBuffer, as fetch's types want).
      const body = new Uint8Array(Buffer.from(built.body));
      const result: AcceptShapeResult = {
        shape: shape.key,
        title: shape.title,
        route: route.path,
        bytes: body.length,
        detail: built.detail,
        expectStatus: shape.expectStatus,
        statuses: [],
        acceptMs: [],
        p50Ms: 0,
        appMs: [],
        readMaxMs: [],
        reads: [],
        cancels: [],
      };
      for (let run = 0; run < o.runs; run++) {
        let measured: Awaited<ReturnType<typeof postWhileReading>>;
        try {
          measured = await postWhileReading(o.origin, route.path, auth, body, readStore);
        } catch (err) {
          // A connection the server closed (an early 413 while the body was still being sent): the
          // stage goes on with the next shape, the run reports it.
          o.errors.push(`accept ${shape.key} ${route.path}: ${err instanceof Error ? err.message : err}`);
          break;
        }
        result.statuses.push(measured.status);
        result.acceptMs.push(measured.ms);
        result.appMs.push(parseServerTiming(measured.serverTiming).appMs);
        result.readMaxMs.push(measured.reads.length > 0 ? Math.max(...measured.reads) : 0);
        result.reads.push(measured.reads.length);
        if (measured.status === 202) {
          const jobId = (JSON.parse(measured.text) as { job_id: string }[])[0]?.job_id;
          const cancel = await fetch(`${o.origin}/api/v1/jobs/${jobId}/cancel`, {
            method: "POST",
            headers: auth,
          });
          await cancel.arrayBuffer();
          result.cancels.push(cancel.status);
          // 202: canceled; 409: the job had already ended (a lone oversized record fails at once).
          if (cancel.status !== 202 && cancel.status !== 409)
            o.errors.push(`accept ${shape.key} ${route.path}: cancel answered ${cancel.status}`);
        } else if (result.problem === undefined) {
          try {
            const problem = JSON.parse(measured.text) as { errors?: { path: string; message: string }[] };
            const first = problem.errors?.[0];
            result.problem = first ? `${first.path}: ${first.message}` : measured.text.slice(0, 200);
          } catch {
            result.problem = measured.text.slice(0, 200);
          }
        }
        // A canceled job's chunk in flight, or the last answer's garbage, settles before the next run.
        await sleep(300);
      }
      result.p50Ms = median(result.acceptMs);
      out.push(result);
      const wrong = result.statuses.filter((s) => s !== shape.expectStatus);
      if (wrong.length > 0)
        o.errors.push(
          `accept ${shape.key} ${route.path}: expected ${shape.expectStatus}, got ${wrong.join(", ")}`,
        );
      log(
        `accept ${shape.key} ${route.path} (${(body.length / 1e6).toFixed(2)} MB, ${built.detail}): ${result.statuses.join("/")} p50 ${result.p50Ms.toFixed(0)} ms, concurrent read max ${Math.max(...result.readMaxMs).toFixed(0)} ms`,
      );
    }
  }
  return {
    measuredAt: new Date().toISOString(),
    runs: o.runs,
    targetMs: ACCEPT_TARGET_MS,
    idleReadMs,
    loadAverage: [loadAtStart, loadavg()[0] ?? 0],
    shapes: out,
  };
}

/**
 * POSTs `body` and, until it has answered, sends GET /api/v1/store one after the other (10 ms
 * apart): the slowest of them is how long a read was held up by the accept.
 */
async function postWhileReading(
  origin: string,
  path: string,
  auth: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  readStore: () => Promise<number>,
) {
  let answered = false;
  const started = performance.now();
  const post = (async () => {
    try {
      const res = await fetch(origin + path, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body,
      });
      const text = await res.text();
      return {
        status: res.status,
        text,
        serverTiming: res.headers.get("server-timing"),
        ms: performance.now() - started,
      };
    } finally {
      answered = true;
    }
  })();
  const reads: number[] = [];
  const reading = (async () => {
    while (!answered) {
      reads.push(await readStore());
      if (!answered) await sleep(10);
    }
  })();
  const [answer] = await Promise.all([post, reading]);
  return { ...answer, reads };
}
