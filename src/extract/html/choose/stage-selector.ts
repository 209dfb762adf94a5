/**
 * The stage choice, learned: which of Readability's pick and the cleaned body to write
 * first, and what kind of page this is, from the features of stage-features.ts. Both are
 * boosted shallow trees (for the page type, one set per type, the highest score winning);
 * they ship as data (stage-model.json), written by
 * `node bench/train-selector.mjs --write` from the three dev splits (how they were
 * validated: docs/extraction.md, "The stage selector").
 */

import type { PageType } from '../../../core/page-types.js';
import model from './stage-model.json' with { type: 'json' };

/** A tree's node: [feature, threshold, left, right] (feature <= threshold goes left), or [-1, value] for a leaf. */
type TreeNode = readonly number[];

/** Boosted trees: their score is base + the trees' values. */
interface Trees {
  base: number;
  trees: readonly (readonly TreeNode[])[];
}

export interface StageModel {
  features: readonly string[];
  /** Readability's pick first when the score is above 0. */
  stage: Trees;
  /** One set of trees per class: the highest score names the page's type. */
  pageType: { classes: readonly string[]; models: readonly Trees[] };
}

export const STAGE_MODEL: StageModel = model;

function treeValue(nodes: readonly TreeNode[], values: Float64Array): number {
  let node = nodes[0]!;
  while (node[0] !== -1) node = nodes[values[node[0]!]! <= node[1]! ? node[2]! : node[3]!]!;
  return node[1]!;
}

function score(model: Trees, values: Float64Array): number {
  let sum = model.base;
  for (const tree of model.trees) sum += treeValue(tree, values);
  return sum;
}

/** Whether Readability's pick should be written before the cleaned body. */
export function readabilityFirst(values: Float64Array): boolean {
  return score(STAGE_MODEL.stage, values) > 0;
}

/** The most likely of the model's page types. */
export function guessPageType(values: Float64Array): PageType {
  const { classes, models } = STAGE_MODEL.pageType;
  let best = 0;
  let bestScore = -Infinity;
  models.forEach((model, k) => {
    const s = score(model, values);
    if (s > bestScore) [best, bestScore] = [k, s];
  });
  return classes[best] as PageType;
}
