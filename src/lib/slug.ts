/** Greek and Cyrillic letters to Latin, a fixed table. */
const TRANSLITERATION: Record<string, string> = {
  α: "a",
  β: "v",
  γ: "g",
  δ: "d",
  ε: "e",
  ζ: "z",
  η: "i",
  θ: "th",
  ι: "i",
  κ: "k",
  λ: "l",
  μ: "m",
  ν: "n",
  ξ: "x",
  ο: "o",
  π: "p",
  ρ: "r",
  σ: "s",
  ς: "s",
  τ: "t",
  υ: "y",
  φ: "f",
  χ: "ch",
  ψ: "ps",
  ω: "o",
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "i",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
};

export const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;
export const SLUG_MAX_LENGTH = 100;

/**
 * NFKD, strip diacritics, transliterate Greek and Cyrillic, lowercase, runs of anything else
 * become "-", trimmed, at most 100 characters. May return "" (the caller then uses `<resource>-<id>`).
 */
export function slugify(text: string): string {
  const lower = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  let latin = "";
  for (const ch of lower) latin += TRANSLITERATION[ch] ?? ch;
  return latin
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, "");
}

/** The `n`th candidate for a generated slug: `base` (n = 1), `base-2`, `base-3`, … (within 100 characters). */
export function slugCandidate(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `-${n}`;
  return base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, "") + suffix;
}

/** The first `count` candidates for a generated slug (see slugCandidate). */
export function slugCandidates(base: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => slugCandidate(base, i + 1));
}

/**
 * The stems of every candidate `slugCandidates(base, n)` can produce besides `base` itself: each
 * candidate is `<stem>-<digits>`. A long base is cut to make room for its suffix (`-2` cuts 2
 * characters, `-10` cuts 3), so looking only for `<base>-<digits>` would miss the shortened
 * candidates and hand out a taken slug. (Match them without LIKE/GLOB: D1 refuses patterns over
 * 50 bytes.)
 */
export function slugCandidateStems(base: string): string[] {
  const out = new Set<string>();
  for (let digits = 1; digits <= 9; digits++) {
    out.add(base.slice(0, SLUG_MAX_LENGTH - digits - 1).replace(/-+$/g, ""));
  }
  return [...out];
}
