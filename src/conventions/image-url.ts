import { z } from "@hono/zod-openapi";
import { urlText } from "./write/field-rules.ts";

/** `image_url` (brands, categories) as rendered: the stored copy, on the public origin. */
export const imageUrlOut = () =>
  z.string().nullable().optional().openapi({
    description:
      "The stored copy, served at `<public origin>/images/<sha256>.<ext>` (no authentication). The public origin is the deployment's configured `PUBLIC_BASE_URL` (`GET /api/v1/health` reports it as `public_origin`); no request header (`Host`, `X-Forwarded-Host`, `Forwarded`) and no image source ever changes it. A deployment with none configured (health's `public_origin` is `null`, and the service logs an error) answers the root-relative `/images/<sha256>.<ext>`, to resolve against the API's own address, never an origin taken from the request.",
  });

/** `image_url` as written: a URL the service downloads into its storage. */
export const imageUrlIn = () =>
  urlText().nullable().optional().openapi({
    description:
      "Downloaded (5 s timeout, at most 5 MiB, png/jpeg/webp/gif/avif) into the service's storage; the response shows the stored copy at `<public origin>/images/<sha256>.<ext>`. Sending that URL back (our own `/images/` URL of a stored image) keeps or reuses the stored copy without a download; any other URL, including one on our `/images/` path whose image is not stored, is downloaded.",
  });
