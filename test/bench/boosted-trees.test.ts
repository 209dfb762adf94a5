/**
 * The learners behind the stage selector (bench/logistic.mjs): on data whose answer is
 * known, each finds it, weights count, and the same rows give the same model.
 */
import { describe, expect, it } from 'vitest';
import { boostedScore, fitBoostedTrees, fitLogistic, fitSoftmax, logisticScore, softmaxClass, standardiser, treeValue } from '../../bench/logistic.mjs';

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

describe('standardiser', () => {
  it('centres and scales each column, leaving a constant column at scale 1', () => {
    const std = standardiser([
      [1, 5, 7],
      [3, 5, 9],
    ]);
    expect(std.mean).toEqual([2, 5, 8]);
    expect(std.scale).toEqual([1, 1, 1]);
    expect(std.apply([3, 5, 7])).toEqual([1, 0, -1]);
  });
});

describe('fitLogistic', () => {
  it('separates classes along the feature that decides them, and ignores rows of weight 0', () => {
    const X = points(300);
    const y = X.map((x) => (x[0]! + 0.5 * x[1]! > 0 ? 1 : 0));
    // Rows of weight 0 carry the opposite answer: they must not count.
    const noisy = [...X, ...X.slice(0, 50)];
    const labels = [...y, ...y.slice(0, 50).map((v) => 1 - v)];
    const weights = [...X.map(() => 1), ...X.slice(0, 50).map(() => 0)];
    const model = fitLogistic(noisy, labels, weights, { lambda: 0.001 });
    const right = X.filter((x, i) => (logisticScore(model, x) > 0 ? 1 : 0) === y[i]).length;
    expect(right / X.length).toBeGreaterThan(0.97);
    expect(model.weights[0]!).toBeGreaterThan(Math.abs(model.weights[2]!) * 5);
  });
});

describe('fitSoftmax', () => {
  it('tells three classes apart by the sign of two features', () => {
    const X = points(300, 7);
    const y = X.map((x) => (x[0]! < -0.3 ? 0 : x[1]! < 0 ? 1 : 2));
    const model = fitSoftmax(X, y, X.map(() => 1), 3, { iterations: 400 });
    const right = X.filter((x, i) => softmaxClass(model, x) === y[i]).length;
    expect(right / X.length).toBeGreaterThan(0.85);
  });
});

describe('fitBoostedTrees', () => {
  it('learns an interaction no linear model can (x0 and x1 of the same sign)', () => {
    const X = points(400, 3);
    const y = X.map((x) => (x[0]! * x[1]! > 0 ? 1 : 0));
    const model = fitBoostedTrees(X, y, X.map(() => 1), { depth: 2, rounds: 60, rate: 0.3, minLeaf: 5 });
    const right = X.filter((x, i) => (boostedScore(model, x) > 0 ? 1 : 0) === y[i]).length;
    expect(right / X.length).toBeGreaterThan(0.9);
    const linear = fitLogistic(X, y, X.map(() => 1));
    const linearRight = X.filter((x, i) => (logisticScore(linear, x) > 0 ? 1 : 0) === y[i]).length;
    expect(linearRight / X.length).toBeLessThan(0.7);
  });

  it('follows the weights: rows that matter more win a split', () => {
    const X = [...points(100, 5), ...points(100, 6)];
    // The first half says "class 1 where x0 > 0", the second the opposite, weighted ten times less.
    const y = X.map((x, i) => ((x[0]! > 0) === i < 100 ? 1 : 0));
    const w = X.map((_, i) => (i < 100 ? 10 : 1));
    const model = fitBoostedTrees(X, y, w, { depth: 1, rounds: 20, rate: 0.3, minLeaf: 5 });
    expect(boostedScore(model, [0.9, 0, 0])).toBeGreaterThan(0);
    expect(boostedScore(model, [-0.9, 0, 0])).toBeLessThan(0);
  });

  it('gives the same trees for the same rows, leaves holding at least minLeaf rows', () => {
    const X = points(200, 9);
    const y = X.map((x) => (x[2]! > 0.2 ? 1 : 0));
    const a = fitBoostedTrees(X, y, X.map(() => 1), { depth: 3, rounds: 10, minLeaf: 20 });
    const b = fitBoostedTrees(X, y, X.map(() => 1), { depth: 3, rounds: 10, minLeaf: 20 });
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
