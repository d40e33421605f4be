/** One parameterized statement of the seed, for `D1Database.prepare(sql).bind(...params)`. */
export type SqlValue = string | number | null;
export interface SeedStatement {
  sql: string;
  params: SqlValue[];
}

/** D1 accepts at most 100 bound parameters per statement; stay below. */
export const MAX_PARAMS_PER_STATEMENT = 99;

export type Row = Record<string, SqlValue>;

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Multi-row INSERTs of `rows` (all with the same keys, in the same order), chunked so each
 * statement binds fewer than 100 parameters.
 */
export function insertRows(table: string, rows: readonly Row[]): SeedStatement[] {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS_PER_STATEMENT / columns.length));
  const head = `INSERT INTO ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(", ")}) VALUES `;
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const statements: SeedStatement[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: SqlValue[] = [];
    for (const row of chunk) {
      for (const column of columns) {
        if (!(column in row)) throw new Error(`Seed row for ${table} lacks column ${column}`);
        params.push(row[column] ?? null);
      }
    }
    statements.push({ sql: head + chunk.map(() => tuple).join(", "), params });
  }
  return statements;
}

/** Empty row lists for `tables`, named parents first, to fill and hand to `insertTables`. */
export function tableRows<const T extends string>(...tables: T[]): Record<T, Row[]> {
  const rows = {} as Record<T, Row[]>;
  for (const table of tables) rows[table] = [];
  return rows;
}

/** The INSERTs of every table's rows, in the order the tables were named (parents first). */
export const insertTables = (rows: Readonly<Record<string, readonly Row[]>>): SeedStatement[] =>
  Object.entries(rows).flatMap(([table, list]) => insertRows(table, list));

/** A JSON column value (`null` stays SQL NULL). */
export const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));

/** A value as an SQLite literal: strings quoted with `'` doubled, numbers as written, NULL. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} as an SQL literal`);
    return String(value);
  }
  if (value.includes("\u0000")) throw new Error("Cannot write a NUL character in an SQL literal");
  return `'${value.replace(/'/g, "''")}'`;
}

/** The statement with every `?` placeholder (outside quoted text) replaced by its literal. */
function inlineParams(statement: SeedStatement): string {
  const { sql, params } = statement;
  let next = 0;
  const out = sql.replace(/'[^']*'|"[^"]*"|`[^`]*`|\?/g, (match) => {
    if (match !== "?") return match;
    if (next >= params.length) throw new Error(`Too few parameters for: ${sql.slice(0, 80)}`);
    return sqlLiteral(params[next++] ?? null);
  });
  if (next !== params.length) throw new Error(`Too many parameters for: ${sql.slice(0, 80)}`);
  return out;
}

/** The statements as one SQL script with literal values, for `wrangler d1 execute --file`. */
export function toSqlScript(statements: readonly SeedStatement[]): string {
  return statements.map((s) => `${inlineParams(s)};\n`).join("");
}
