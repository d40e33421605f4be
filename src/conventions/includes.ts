import { asc, eq, getTableColumns } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AnyResource, IncludeDef } from "./resource.ts";
import { jsonIn } from "./sql.ts";

type Row = Record<string, unknown> & { id: number };

/** To-one include through a foreign key on the parent row (product → brand). */
export function belongsTo<R extends Row>(
  resource: () => AnyResource,
  fk: (row: R) => number | null,
): IncludeDef<R> {
  return {
    resource,
    kind: "one",
    query: (db, rows) => {
      const ids = [...new Set(rows.map(fk).filter((id): id is number => id !== null))];
      const child = resource();
      return db.select().from(child.table).where(jsonIn(child.idColumn, ids));
    },
    group: (result, rows) => {
      const byId = new Map((result as Row[]).map((r) => [r.id, r]));
      return new Map(
        rows.map((row) => {
          const id = fk(row);
          const child = id === null ? undefined : byId.get(id);
          return [row.id, child ? [child] : []];
        }),
      );
    },
  };
}

/** To-many include through a foreign key on the child rows (product → variants), in `order`. */
export function hasMany<R extends Row>(
  resource: () => AnyResource,
  childFk: SQLiteColumn,
  childFkKey: string,
  order: SQLiteColumn[],
): IncludeDef<R> {
  return {
    resource,
    kind: "many",
    query: (db, rows) =>
      db
        .select()
        .from(resource().table)
        .where(
          jsonIn(
            childFk,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(...order.map((c) => asc(c))),
    group: (result) => {
      const out = new Map<number, Row[]>();
      for (const child of result as Row[]) {
        const parent = child[childFkKey] as number;
        out.set(parent, [...(out.get(parent) ?? []), child]);
      }
      return out;
    },
  };
}

/** To-many include through a link table (product → categories), ordered by the link's position. */
export function manyThrough<R extends Row>(
  resource: () => AnyResource,
  link: { table: SQLiteTable; parent: SQLiteColumn; child: SQLiteColumn; position: SQLiteColumn },
): IncludeDef<R> {
  return {
    resource,
    kind: "many",
    query: (db, rows) => {
      const child = resource();
      return db
        .select({ ...getTableColumns(child.table), __parent: link.parent })
        .from(link.table)
        .innerJoin(child.table, eq(child.idColumn, link.child))
        .where(
          jsonIn(
            link.parent,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(link.parent), asc(link.position));
    },
    group: (result) => {
      const out = new Map<number, Row[]>();
      for (const { __parent, ...child } of result as (Row & { __parent: number })[]) {
        out.set(__parent, [...(out.get(__parent) ?? []), child as Row]);
      }
      return out;
    },
  };
}
