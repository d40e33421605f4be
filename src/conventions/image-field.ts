import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { isStoredImageUrl, storeImageFromUrl } from "../images/index.ts";

/**
 * The value to store for a written `image_url`: null clears, the current stored URL is unchanged,
 * anything else is downloaded into R2 before any write (a failed download saves nothing).
 */
export async function resolveImageUrl(
  c: Context<AppEnv>,
  value: string | null | undefined,
  current: string | null,
  bodyPath = "image_url",
): Promise<string | null | undefined> {
  if (value === undefined || value === null) return value;
  const origin = new URL(c.req.url).origin;
  if (value === current || isStoredImageUrl(value, origin)) return value === current ? undefined : value;
  return storeImageFromUrl(c, value, bodyPath);
}
