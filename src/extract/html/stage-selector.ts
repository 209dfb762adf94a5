/**
 * The stage choice, learned: which of Readability's pick and the cleaned body to write
 * first, and what kind of page this is, from the features of stage-features.ts. The stage
 * is chosen by boosted shallow trees, the page type by a softmax regression over the
 * standardised features; both ship as data (stage-model.json), written by
 * `node bench/train-selector.mjs --write` from the three dev splits (how they were
 * validated: docs/extraction.md, "4. Choosing a stage").
 */

import type { PageType } from '../../core/page-types.js';
import model from './stage-model.json' with { type: 'json' };

/** A tree's node: [feature, threshold, left, right] (feature <= threshold goes left), or [-1, value] for a leaf. */
type TreeNode = readonly number[];

export interface StageModel {
  features: readonly string[];
  /** Readability's pick first when base + the trees' values > 0. */
  stage: { base: number; trees: readonly (readonly TreeNode[])[] };
  /** Softmax over `classes` of the features centred by `mean` and divided by `scale`. */
  pageType: { classes: readonly string[]; mean: readonly number[]; scale: readonly number[]; bias: readonly number[]; weights: readonly (readonly number[])[] };
}

export const STAGE_MODEL: StageModel = model;

function treeValue(nodes: readonly TreeNode[], values: Float64Array): number {
  let node = nodes[0]!;
  while (node[0] !== -1) node = nodes[values[node[0]!]! <= node[1]! ? node[2]! : node[3]!]!;
  return node[1]!;
}

/** Whether Readability's pick should be written before the cleaned body. */
export function readabilityFirst(values: Float64Array): boolean {
  let score = STAGE_MODEL.stage.base;
  for (const tree of STAGE_MODEL.stage.trees) score += treeValue(tree, values);
  return score > 0;
}

/** The most likely of the model's page types. */
export function guessPageType(values: Float64Array): PageType {
  const { classes, mean, scale, bias, weights } = STAGE_MODEL.pageType;
  let best = 0;
  let bestScore = -Infinity;
  classes.forEach((_, k) => {
    let score = bias[k]!;
    const w = weights[k]!;
    for (let i = 0; i < values.length; i++) score += (w[i]! * (values[i]! - mean[i]!)) / scale[i]!;
    if (score > bestScore) [best, bestScore] = [k, score];
  });
  return classes[best] as PageType;
}
