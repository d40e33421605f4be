import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { keyedColumns, tableColumns } from "../db/keyed-columns.ts";
import type { Db } from "../env.ts";
import { groupByParent } from "./child-rows.ts";
import { type IdSet, idQuery } from "./id-set.ts";
import type { AnyResource, IncludeDef } from "./resource.ts";
import { columnKey } from "./sql.ts";

type Row = Record<string, unknown> & { id: number };

/** The ids a subquery selects, for `IdSet`s built before any row is read. */
const selectIds = (db: Db, column: SQLiteColumn, from: SQLiteTable, where: ReturnType<IdSet["in"]>) =>
  idQuery(db.select({ id: column }).from(from).where(where));

/**
 * To-one include through a foreign key on the parent row (product → brand). Both lookups are by a
 * table's own id, so both are joins driven by the ids (`IdSet.rows`): the parents' distinct keys,
 * then each child row by its key.
 */
export function belongsTo<R extends Row>(
  resource: () => AnyResource,
  link: { fk: SQLiteColumn; parentId: SQLiteColumn; parentTable: SQLiteTable },
): IncludeDef<R> {
  const childIds = (_db: Db, ids: IdSet) =>
    idQuery(
      sql`(SELECT DISTINCT ${link.fk} FROM ${ids.rows("i")} CROSS JOIN ${link.parentTable} ON ${link.parentId} = i.id)`,
    );
  return {
    resource,
    kind: "one",
    query: (db, ids) => {
      const child = resource();
      return db
        .select(tableColumns(child.table))
        .from(sql`${childIds(db, ids).rows("k")} CROSS JOIN ${child.table}`)
        .where(eq(child.idColumn, sql`k.id`));
    },
    childIds,
    group: (result, rows) => {
      const fkKey = columnKey(link.fk);
      const byId = new Map((result as Row[]).map((r) => [r.id, r]));
      return new Map(
        rows.map((row) => {
          const id = row[fkKey] as number | null;
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
  order: SQLiteColumn[],
): IncludeDef<R> {
  return {
    resource,
    kind: "many",
    query: (db, ids) =>
      db
        .select(tableColumns(resource().table))
        .from(resource().table)
        .where(ids.in(childFk))
        .orderBy(...order.map((c) => asc(c))),
    childIds: (db, ids) => {
      const child = resource();
      return selectIds(db, child.idColumn, child.table, ids.in(childFk));
    },
    group: (result) => {
      const key = columnKey(childFk);
      return groupByParent(result as Row[], (child) => child[key] as number);
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
    query: (db, ids) => {
      const child = resource();
      return db
        .select(keyedColumns({ ...getTableColumns(child.table), __parent: link.parent }))
        .from(link.table)
        .innerJoin(child.table, eq(child.idColumn, link.child))
        .where(ids.in(link.parent))
        .orderBy(asc(link.parent), asc(link.position));
    },
    childIds: (db, ids) => selectIds(db, link.child, link.table, ids.in(link.parent)),
    // The rows keep their `__parent` column: rendering reads only the included resource's fields.
    group: (result) => groupByParent(result as (Row & { __parent: number })[], (row) => row.__parent),
  };
}
