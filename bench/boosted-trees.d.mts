// Types of boosted-trees.mjs for the tests.
/** A node: [feature, threshold, left, right], or [-1, value] for a leaf. */
export type TreeNode = number[];
export interface BoostedTrees {
  base: number;
  trees: TreeNode[][];
}

export function fitBoostedTrees(
  X: number[][],
  y: number[],
  w: number[],
  options?: { rounds?: number; depth?: number; rate?: number; lambda?: number; minLeaf?: number },
): BoostedTrees;
export function treeValue(nodes: TreeNode[], row: number[]): number;
export function boostedScore(model: BoostedTrees, row: number[]): number;
