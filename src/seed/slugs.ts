import { SLUG_MAX_LENGTH, slugify } from "../lib/slug.ts";

/**
 * Hands out unique slugs within one scope (all brands, or one locale of categories) the way the
 * API generates them: `slugify(name)`, then `-2`, `-3`, … on collision; `fallback` when empty.
 */
export function slugAllocator() {
  const used = new Set<string>();
  return (name: string, fallback: string): string => {
    const base = slugify(name) || fallback;
    let slug = base;
    for (let n = 2; used.has(slug); n++) {
      const suffix = `-${n}`;
      slug = base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, "") + suffix;
    }
    used.add(slug);
    return slug;
  };
}
