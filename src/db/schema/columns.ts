import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

/** UTC timestamp stored as ISO 8601 text with whole seconds and `Z`, so text order is time order. */
export const timestamp = (name: string) => text(name);

export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

export const createdAt = () => timestamp("created_at").notNull().default(nowIso);
export const updatedAt = () => timestamp("updated_at").notNull().default(nowIso);

/** Exact decimal amount stored as a canonical string ("12.50"); never a binary float. */
export const amount = (name: string) => text(name);

export const bool = (name: string) => integer(name, { mode: "boolean" });
