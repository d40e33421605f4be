import type { ConventionQuery } from "./query-schema.ts";
import type { AnyResource } from "./resource.ts";

/** The selection a request makes on one resource: root fields, translated fields, includes. */
export interface Selection {
  fields: string[];
  translated: string[];
  includes: string[];
}

export function selectionOf(
  resource: AnyResource,
  query: Pick<ConventionQuery, "fields" | "includes">,
): Selection {
  const trFields = resource.translations?.fields ?? {};
  const rootNames = Object.keys(resource.fields);
  const fixed = rootNames.filter((n) => resource.fields[n]?.kind === "fixed");
  if (query.fields) {
    return {
      fields: rootNames.filter((n) => fixed.includes(n) || query.fields?.includes(n)),
      translated: Object.keys(trFields).filter((n) => query.fields?.includes(n)),
      includes: query.includes ?? [],
    };
  }
  return {
    fields: rootNames.filter((n) => {
      const kind = resource.fields[n]?.kind;
      return kind === "fixed" || kind === "default";
    }),
    translated: Object.keys(trFields).filter((n) => trFields[n]?.kind === "default"),
    includes: query.includes ?? [],
  };
}

export const defaultSelection = (resource: AnyResource) => selectionOf(resource, {});
