// Types of logistic.mjs for the tests.
export interface Standardiser {
  mean: number[];
  scale: number[];
  apply(row: number[]): number[];
}
export interface LinearModel {
  bias: number;
  weights: number[];
}
export interface SoftmaxModel {
  bias: number[];
  weights: number[][];
}
export type TreeNode = number[];
export interface BoostedTrees {
  base: number;
  trees: TreeNode[][];
}

export function standardiser(rows: number[][]): Standardiser;
export function fitLogistic(X: number[][], y: number[], w: number[], options?: { lambda?: number; iterations?: number }): LinearModel;
export function logisticScore(model: LinearModel, row: number[]): number;
export function fitSoftmax(X: number[][], y: number[], w: number[], k: number, options?: { lambda?: number; iterations?: number; rate?: number }): SoftmaxModel;
export function softmaxClass(model: SoftmaxModel, row: number[]): number;
export function fitBoostedTrees(
  X: number[][],
  y: number[],
  w: number[],
  options?: { rounds?: number; depth?: number; rate?: number; lambda?: number; minLeaf?: number },
): BoostedTrees;
export function treeValue(nodes: TreeNode[], row: number[]): number;
export function boostedScore(model: BoostedTrees, row: number[]): number;
