import type { BulkBody, BulkPath, JobAccepted, StorefrontClient } from "../../../client/src/index.ts";
import type { PushArgs } from "./args.ts";

/**
 * The records go as read: each is validated by the job (its log says what is wrong), so the CLI
 * checks only the body's outer shape, which it builds itself.
 */
const isBulkBody = <P extends BulkPath>(_path: P, body: unknown): body is BulkBody<P> =>
  typeof body === "object" && body !== null && "options" in body && Object.keys(body).length === 2;

/** Posts one part's body to the kind's bulk operation with the part's idempotency key. */
export async function submitPart(
  client: StorefrontClient,
  args: Pick<PushArgs, "kind" | "priceList">,
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<JobAccepted> {
  switch (args.kind) {
    case "products": {
      const path = "/api/v1/products/bulk";
      if (isBulkBody(path, body)) return client.submitBulk(path, body, { idempotencyKey });
      break;
    }
    case "variants": {
      const path = "/api/v1/variants/bulk";
      if (isBulkBody(path, body)) return client.submitBulk(path, body, { idempotencyKey });
      break;
    }
    case "price-list-prices": {
      const path = "/api/v1/price-lists/{id}/variant-prices/bulk";
      const params = { path: { id: Number(args.priceList) } };
      if (isBulkBody(path, body)) return client.submitBulk(path, body, { idempotencyKey, params });
      break;
    }
    case "link-identifiers": {
      const path = "/api/v1/products/link-identifiers";
      if (isBulkBody(path, body)) return client.submitBulk(path, body, { idempotencyKey });
      break;
    }
  }
  throw new Error("the CLI built a bulk body without its records and options");
}
