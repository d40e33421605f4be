import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { ownImageFile, publicOrigin, storedImageFile, storeImage } from "../images/index.ts";

/**
 * The value to store for a written `image_url`: null clears; the URL the
 * current image renders at (or the stored value itself) is unchanged; our own
 * `<public origin>/images/<key>` is stored as its key without a download, but only when that object
 * is in the bucket; anything else, a URL on our path whose object does not exist included, is
 * downloaded through the outbound guard into R2 before any write (a failed download saves nothing).
 * The stored value is the object key, rendered on the public origin at read time.
 */
export async function resolveImageUrl(
  c: Context<AppEnv>,
  value: string | null | undefined,
  current: string | null,
  bodyPath = "image_url",
): Promise<string | null | undefined> {
  if (value === undefined || value === null) return value;
  const own = ownImageFile(value, publicOrigin(c.env));
  if (value === current || (own !== null && current !== null && own === storedImageFile(current)))
    return undefined;
  if (own !== null && (await c.env.IMAGES.head(own)) !== null) return own;
  return storeImage(c.env, value, bodyPath);
}
