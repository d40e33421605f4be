/**
 * `npm run bench:ab` judges two bundles by each round's own head ÷ base ratio, so a machine whose
 * speed drifts between rounds moves both sides of a ratio together; a verdict needs every one of
 * at least five rounds to agree.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type AbSample, MIN_ROUNDS, summarizeAb } from "./ab-summary.ts";

const sample = (side: AbSample["side"], round: number, cpuMs: number, status = "done"): AbSample => ({
  side,
  round,
  key: "variants_update",
  wallMs: cpuMs * 1.1,
  cpuMs,
  status,
});

/** Rounds where base took `base[i]` ms and head `base[i] × ratios[i]`. */
const rounds = (base: number[], ratios: number[]) =>
  base.flatMap((ms, round) => [
    sample("base", round, ms),
    sample("head", round, ms * (ratios[round] as number)),
  ]);

test("a head faster in every round is faster, even when the machine slows threefold between rounds", () => {
  const [row] = summarizeAb(rounds([1000, 3000, 1500, 2000, 1000], [0.9, 0.95, 0.92, 0.93, 0.94]));
  assert.equal(row?.verdict, "faster");
  assert.equal(row?.rounds, 5);
  assert.equal(row?.cpuRatio.min, 0.9);
  assert.equal(row?.cpuRatio.max, 0.95);
  assert.equal(row?.cpuRatio.median, 0.93);
});

test("a head slower in every round is slower", () => {
  const [row] = summarizeAb(rounds([1000, 1000, 1000, 1000, 1000], [1.1, 1.05, 1.2, 1.02, 1.07]));
  assert.equal(row?.verdict, "slower");
});

test("rounds that disagree leave the verdict within the spread", () => {
  const [row] = summarizeAb(rounds([1000, 1000, 1000, 1000, 1000], [0.9, 0.9, 1.1, 0.9, 0.9]));
  assert.equal(row?.verdict, "within the spread");
});

test(`fewer than ${MIN_ROUNDS} agreeing rounds give no verdict: three happen 1 time in 4 by chance`, () => {
  const [row] = summarizeAb(rounds([1000, 1000, 1000], [0.87, 0.93, 0.89]));
  assert.equal(row?.verdict, "within the spread");
  assert.equal(row?.rounds, 3);
});

test("a round where either bundle did not finish the job is not compared, and is listed", () => {
  const samples = rounds([1000, 1000, 1000, 1000, 1000, 1000], [1.1, 1.1, 1.1, 1.1, 1.1, 1.1]);
  samples[1] = sample("head", 0, 500, "failed");
  const [row] = summarizeAb(samples);
  assert.equal(row?.rounds, 5);
  assert.equal(row?.verdict, "slower");
  assert.deepEqual(row?.failed, ["head 0: failed"]);
});
