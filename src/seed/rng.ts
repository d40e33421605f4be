/**
 * A small seeded PRNG (mulberry32): integer arithmetic only, so the same seed gives the same
 * sequence under Node and workerd. Each seed module takes its own stream (`rngFor("brands")`), so
 * adding a resource or changing one module's draws never shifts another module's data.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error("pick() from an empty list");
      return item;
    },
    chance: (probability) => next() < probability,
  };
}

/** FNV-1a of the stream name, so every module has a fixed, independent seed. */
export function rngFor(stream: string): Rng {
  let hash = 0x811c9dc5;
  for (let i = 0; i < stream.length; i++) {
    hash ^= stream.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return createRng(hash);
}

const ONSETS = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr", "st"];
const VOWELS = ["a", "e", "i", "o", "u", "ia", "eo"];
const CODAS = ["", "", "n", "r", "s", "l", "x"];

/** A pronounceable made-up word ("Torevan", "Bilas"), for the extra rows of scaled-up seeds. */
export function syntheticWord(rng: Rng, syllables = rng.int(2, 3)): string {
  let word = "";
  for (let i = 0; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(VOWELS);
  word += rng.pick(CODAS);
  return word.charAt(0).toUpperCase() + word.slice(1);
}
