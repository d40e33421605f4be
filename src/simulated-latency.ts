import type { Bindings } from "./env.ts";

/**
 * A simulated deployment for the benchmark (`npm run bench -- --d1-rtt 25 --queue-delay-ms N`):
 * local D1 answers in well under a millisecond where a deployed Worker waits a network round trip,
 * so `wrangler dev` hides what every D1 call costs. With `SIMULATED_D1_RTT_MS` set, every call of
 * the DB binding (`batch`, `exec`, a statement's `all`/`first`/`run`/`raw`, and the same through
 * `withSession`) waits that long before it is answered; with `SIMULATED_QUEUE_DELAY_MS`, every
 * queue batch waits that long before it is handled (the delivery delay of Queues). Only when
 * `ENVIRONMENT` is `development`: a deployed Worker (`production`) ignores both, untouched.
 */
export function withSimulatedLatency(env: Bindings): Bindings {
  const rtt = simulated(env, env.SIMULATED_D1_RTT_MS);
  return rtt > 0 ? { ...env, DB: delayedDatabase(env.DB, rtt) } : env;
}

/** The simulated queue delivery delay in ms (0: none, always outside development). */
export const simulatedQueueDelay = (env: Bindings) => simulated(env, env.SIMULATED_QUEUE_DELAY_MS);

export const simulatedWait = (ms: number) => (ms > 0 ? scheduler.wait(ms) : Promise.resolve());

function simulated(env: Bindings, value: string | undefined): number {
  if (env.ENVIRONMENT !== "development" || value === undefined) return 0;
  const ms = Number(value);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The real statement behind a delayed one: `batch` hands D1 the statements it prepared. */
const inner = new WeakMap<object, D1PreparedStatement>();

const unwrap = (statement: D1PreparedStatement) => inner.get(statement) ?? statement;

function delayedStatement(statement: D1PreparedStatement, rtt: number): D1PreparedStatement {
  const delayed = {
    bind: (...values: unknown[]) => delayedStatement(statement.bind(...values), rtt),
    first: async (column?: string) => {
      await scheduler.wait(rtt);
      return column === undefined ? statement.first() : statement.first(column);
    },
    run: async () => {
      await scheduler.wait(rtt);
      return statement.run();
    },
    all: async () => {
      await scheduler.wait(rtt);
      return statement.all();
    },
    raw: async (options?: { columnNames?: boolean }) => {
      await scheduler.wait(rtt);
      return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
    },
  } as unknown as D1PreparedStatement;
  inner.set(delayed, statement);
  return delayed;
}

/** What a database and a session have in common: statements and batches. */
function delayedQueries(target: D1Database | D1DatabaseSession, rtt: number) {
  return {
    prepare: (query: string) => delayedStatement(target.prepare(query), rtt),
    batch: async <T>(statements: D1PreparedStatement[]) => {
      await scheduler.wait(rtt);
      return target.batch<T>(statements.map(unwrap));
    },
  };
}

function delayedDatabase(db: D1Database, rtt: number): D1Database {
  return {
    ...delayedQueries(db, rtt),
    exec: async (query: string) => {
      await scheduler.wait(rtt);
      return db.exec(query);
    },
    dump: () => db.dump(),
    withSession: (constraintOrBookmark?: string) => {
      const session = db.withSession(constraintOrBookmark);
      return { ...delayedQueries(session, rtt), getBookmark: () => session.getBookmark() };
    },
  } as D1Database;
}
