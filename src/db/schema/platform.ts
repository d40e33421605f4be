import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, owner, timestamp, updatedAt } from "./columns.ts";

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    name: text("name").notNull(),
    /** First characters of the secret, shown in listings to recognise a key. */
    prefix: text("prefix").notNull(),
    /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at"),
    revokedAt: timestamp("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash)],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    apiKeyId: integer("api_key_id").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseLocation: text("response_location"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);

export const webhooks = sqliteTable("webhooks", {
  id: id(),
  url: text("url").notNull(),
  events: text("events", { mode: "json" }).$type<string[]>().notNull(),
  description: text("description"),
  secret: text("secret").notNull(),
  status: text("status", { enum: ["active", "disabled"] })
    .notNull()
    .default("active"),
  disabledAt: timestamp("disabled_at"),
  /** Start of the current run of failed deliveries; null after a success. */
  failingSince: timestamp("failing_since"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    webhookId: owner("webhook_id", () => webhooks.id),
    /** The `webhook-id` header: the same on every attempt of one event. */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    jobId: text("job_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    createdAt: createdAt(),
    nextRetryAt: timestamp("next_retry_at"),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    /** One row per attempt of a message: a redelivered queue message finds its attempt already made. */
    uniqueIndex("webhook_deliveries_attempt_unique").on(t.messageId, t.attempt),
  ],
);
