import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { notFound } from "../http/problem.ts";
import { defineRoute } from "../http/route.ts";
import { IMAGE_TYPES } from "./sniff.ts";
import { contentTypeOf, IMAGE_FILE_PATTERN } from "./store.ts";

const ImageFileParams = z.object({
  file: z
    .string()
    .regex(IMAGE_FILE_PATTERN, "must be <sha256 hex>.<png|jpg|webp|gif|avif>")
    .openapi({
      param: { name: "file", in: "path" },
      example: `${"0".repeat(64)}.png`,
    }),
});

const binary = z.string().openapi({ format: "binary" });

/** Serves stored brand and category images: public, immutable (the name is the content hash). */
export function registerImages(app: OpenAPIHono<AppEnv>) {
  defineRoute(
    app,
    {
      method: "get",
      path: "/images/{file}",
      operationId: "getImage",
      summary: "Get a stored image",
      description:
        "Brand and category images downloaded from their `image_url` and served by the service. No authentication; the file name is the SHA-256 of the content, so answers are cacheable forever.",
      tags: ["Images"],
      scope: null,
      params: ImageFileParams,
      responses: {
        200: {
          description: "The image bytes",
          content: Object.fromEntries(Object.values(IMAGE_TYPES).map((type) => [type, { schema: binary }])),
        },
        304: { description: "Not modified (matching `If-None-Match`)" },
      },
    },
    async (c, { params }) => {
      const object = await c.env.IMAGES.get(params.file);
      if (!object) throw notFound("Image");
      const headers = new Headers({
        "Content-Type": object.httpMetadata?.contentType ?? contentTypeOf(params.file),
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'",
        ETag: object.httpEtag,
      });
      const ifNoneMatch = c.req.header("if-none-match");
      if (ifNoneMatch && matchesEtag(ifNoneMatch, object.httpEtag)) {
        await object.body.cancel();
        headers.delete("Content-Type");
        return new Response(null, { status: 304, headers });
      }
      headers.set("Content-Length", String(object.size));
      return new Response(object.body, { status: 200, headers });
    },
  );
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

const matchesEtag = (header: string, tag: string) =>
  header.trim() === "*" || header.split(",").some((candidate) => opaque(candidate) === opaque(tag));
