/**
 * Writes openapi.json, the OpenAPI document the app serves at /api/v1/openapi.json, built from the
 * code (scripts/lib/openapi-document.ts). Run it after changing a route or a schema and commit the
 * file: test/http/openapi-file.test.ts fails while the served document and the file differ.
 *
 *   npm run openapi
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { OPENAPI_FILE, openApiDocumentText } from "./lib/openapi-document.ts";

writeFileSync(OPENAPI_FILE, await openApiDocumentText());
console.log(`wrote ${relative(process.cwd(), OPENAPI_FILE)}`);
