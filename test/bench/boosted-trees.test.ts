/**
 * The learner behind the stage selector (bench/boosted-trees.mjs): on data whose answer is
 * known it finds it, weights count, and the same rows give the same trees.
 */
import { describe, expect, it } from 'vitest';
import { boostedScore, fitBoostedTrees, treeValue } from '../../bench/boosted-trees.mjs';

/** A fixed pseudo-random sequence (a linear congruential generator): the same data every run. */
function sequence(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function points(n: number, seed = 1): number[][] {
  const next = sequence(seed);
  return Array.from({ length: n }, () => [next() * 2 - 1, next() * 2 - 1, next() * 2 - 1]);
}

describe('fitBoostedTrees', () => {
  it('learns an interaction no linear model can (x0 and x1 of the same sign)', () => {
    const X = points(400, 3);
    const y = X.map((x) => (x[0]! * x[1]! > 0 ? 1 : 0));
    const model = fitBoostedTrees(
      X,
      y,
      X.map(() => 1),
      { depth: 2, rounds: 60, rate: 0.3, minLeaf: 5 },
    );
    const right = X.filter((x, i) => (boostedScore(model, x) > 0 ? 1 : 0) === y[i]).length;
    expect(right / X.length).toBeGreaterThan(0.9);
    // One level cannot: a single split of x0 or x1 is right about half the time.
    const stumps = fitBoostedTrees(
      X,
      y,
      X.map(() => 1),
      { depth: 1, rounds: 60, rate: 0.3, minLeaf: 5 },
    );
    const stumpsRight = X.filter((x, i) => (boostedScore(stumps, x) > 0 ? 1 : 0) === y[i]).length;
    expect(stumpsRight / X.length).toBeLessThan(0.75);
  });

  it('follows the weights: rows that matter more win a split', () => {
    const X = [...points(100, 5), ...points(100, 6)];
    // The first half says "class 1 where x0 > 0", the second the opposite, weighted ten times less.
    const y = X.map((x, i) => (x[0]! > 0 === i < 100 ? 1 : 0));
    const w = X.map((_, i) => (i < 100 ? 10 : 1));
    const model = fitBoostedTrees(X, y, w, { depth: 1, rounds: 20, rate: 0.3, minLeaf: 5 });
    expect(boostedScore(model, [0.9, 0, 0])).toBeGreaterThan(0);
    expect(boostedScore(model, [-0.9, 0, 0])).toBeLessThan(0);
  });

  it('gives the same trees for the same rows, leaves holding at least minLeaf rows', () => {
    const X = points(200, 9);
    const y = X.map((x) => (x[2]! > 0.2 ? 1 : 0));
    const a = fitBoostedTrees(
      X,
      y,
      X.map(() => 1),
      { depth: 3, rounds: 10, minLeaf: 20 },
    );
    const b = fitBoostedTrees(
      X,
      y,
      X.map(() => 1),
      { depth: 3, rounds: 10, minLeaf: 20 },
    );
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const tree = a.trees[0]!;
    const leafOf = (row: number[]): number => {
      let i = 0;
      while (tree[i]![0] !== -1) i = row[tree[i]![0]!]! <= tree[i]![1]! ? tree[i]![2]! : tree[i]![3]!;
      return i;
    };
    const sizes = new Map<number, number>();
    for (const x of X) sizes.set(leafOf(x), (sizes.get(leafOf(x)) ?? 0) + 1);
    for (const n of sizes.values()) expect(n).toBeGreaterThanOrEqual(20);
    expect(treeValue(tree, X[0]!)).toBe(tree[leafOf(X[0]!)]![1]);
  });
});
