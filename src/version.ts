import packageJson from "../package.json" with { type: "json" };

/**
 * The service's version: package.json's, bundled into the Worker at build time (a Worker cannot read
 * files at run time). The OpenAPI document's `info.version` and `GET /api/v1/health` report it;
 * CHANGELOG.md names it.
 */
export const VERSION: string = packageJson.version;
