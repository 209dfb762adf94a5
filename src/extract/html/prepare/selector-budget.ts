/**
 * The caller's selectors matched under a budget of steps. css-select matches right to left
 * and backtracks over every descendant (and `~`) combinator without memo for plain
 * compounds: `x div div div div p` on a page of 200 nested `<div>`s tries each way of
 * placing the `div`s among a `<p>`'s ancestors, billions of steps for one selector. So
 * the selectors run here with linkedom's own adapter to css-select (the same answers as
 * its querySelectorAll and closest), each DOM step counted against the budget of one
 * conversion; past it the page fails `too_large`, naming the fields, never a worker held.
 */
import { compile, type Options } from 'css-select';
import { AppError } from '../../../core/errors.js';
import { ELEMENT_NODE, TEXT_NODE, isElement, type DomElement, type DomNode } from '../dom.js';

/**
 * The work the page controls' selectors may do on one conversion, every selector of both
 * fields and both parses together, in steps of about 10 ns each (a parent or attribute
 * read is one; the costlier DOM reads weigh more: VISIT_STEPS, LIST_ITEM_STEPS). Twenty
 * simple selectors in each field on a page at the element bound (100,000) take about
 * 40 million; backtracking ones stop here within about a second.
 */
export const SELECTOR_MATCH_STEPS = 100_000_000;

/** Visiting an element to test it (linkedom's sibling links and the test's call): ~40 ns. */
const VISIT_STEPS = 4;
/** Each node of a list of children or siblings (linkedom builds a fresh NodeList: ~180 ns a node). */
const LIST_ITEM_STEPS = 16;

/** A spent budget's error: a class of its own, so that no step swallows it as a failure of its own. */
export class SelectorBudgetSpent extends AppError {}

/** The steps left, shared by every match of one conversion; spent once, every later match fails at once. */
export class MatchBudget {
  left: number;
  readonly steps: number;
  #failure: SelectorBudgetSpent | undefined;

  constructor(steps: number = SELECTOR_MATCH_STEPS) {
    this.steps = steps;
    this.left = steps;
  }

  /** The error once the budget is spent, else undefined. */
  get failure(): SelectorBudgetSpent | undefined {
    return this.#failure;
  }

  /** Throws the budget's error (every time it is called after the budget ran out). */
  exhausted(): never {
    this.#failure ??= new SelectorBudgetSpent(
      'too_large',
      `Matching include_selectors / exclude_selectors on this page took more than ${this.steps.toLocaleString('en-US')} steps, the most one page may take; the page was not converted and nothing was charged. Selectors with fewer descendant (" ") and "~" combinators match in far fewer steps (">" and "+" do not backtrack).`,
    );
    throw this.#failure;
  }
}

type Adapter = NonNullable<Options<DomNode, DomElement>['adapter']>;

interface LinkedomElement extends DomElement {
  getAttributeNode?(name: string): { value: string } | null;
}

/**
 * linkedom's adapter (linkedom/esm/shared/matches.js) for its HTML documents, which the
 * pipeline always parses (names compared in lower case), each call paying its steps:
 * one, or the length of the list it hands over.
 */
function countingAdapter(budget: MatchBudget): Adapter {
  const spend = (steps: number): void => {
    budget.left -= steps;
    if (budget.left < 0) budget.exhausted();
  };
  const getChildren = (node: DomNode): DomNode[] => {
    // linkedom's NodeList is an array.
    const children = node.childNodes as unknown as DomNode[];
    spend(1 + LIST_ITEM_STEPS * children.length);
    return children;
  };
  const getText = (node: DomNode): string => {
    spend(1);
    if (isElement(node)) return getChildren(node).map(getText).join('');
    return node.nodeType === TEXT_NODE ? (node.textContent ?? '') : '';
  };
  return {
    isTag: (node): node is DomElement => {
      spend(1);
      return node.nodeType === ELEMENT_NODE;
    },
    getAttributeValue: (element, name) => {
      spend(1);
      // linkedom's: the class attribute read from its node (its className getter is patched: read/linkedom-patch.ts).
      const value =
        name === 'class'
          ? ((element as LinkedomElement).getAttributeNode?.('class')?.value ?? null)
          : element.getAttribute(name);
      return value ?? undefined;
    },
    getChildren,
    getName: (element) => {
      spend(1);
      return element.localName.toLowerCase();
    },
    getParent: (node) => {
      spend(1);
      return node.parentNode;
    },
    getSiblings: (node) => (node.parentNode === null ? [node] : getChildren(node.parentNode)),
    prevElementSibling: (node) => {
      spend(1);
      return isElement(node) ? node.previousElementSibling : null;
    },
    getText,
    hasAttrib: (element, name) => {
      spend(1);
      return element.hasAttribute(name);
    },
    removeSubsets: (nodes) => nodes.filter((node, i) => nodes.indexOf(node) === i && !hasAncestorIn(node, nodes)),
  };
}

function hasAncestorIn(node: DomNode, nodes: readonly DomNode[]): boolean {
  for (let at = node.parentNode; at !== null; at = at.parentNode) if (nodes.includes(at)) return true;
  return false;
}

/** A selector compiled to a test of one element, each step paid from `budget`. */
export type ElementTest = (element: DomElement) => boolean;

/** `selector` (checked by the request's validation) as linkedom compiles it for `root`'s querySelectorAll and closest. */
export function compileSelector(selector: string, root: DomElement, budget: MatchBudget): ElementTest {
  return compile<DomNode, DomElement>(selector, {
    xmlMode: false,
    adapter: countingAdapter(budget),
    // As linkedom: `:scope` is the element the query runs on.
    ...(selector.includes(':scope') ? { context: root } : {}),
  }) as ElementTest;
}

/** Whether `root` or one of its ancestors passes `test` (linkedom's closest). */
export function closestPasses(root: DomElement, test: ElementTest): boolean {
  for (let at: DomElement | null = root; at !== null; at = at.parentElement) if (test(at)) return true;
  return false;
}

/**
 * The elements under `root` (not itself) that pass `test`, as linkedom's querySelectorAll
 * finds them: every descendant element, the content of a `<template>` left out.
 */
export function descendantsPassing(root: DomElement, test: ElementTest, budget: MatchBudget): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomElement[] = [];
  const pushChildren = (element: DomElement): void => {
    for (let child = element.lastChild; child !== null; child = child.previousSibling)
      if (isElement(child)) stack.push(child);
  };
  pushChildren(root);
  while (stack.length > 0) {
    const element = stack.pop() as DomElement;
    budget.left -= VISIT_STEPS;
    if (budget.left < 0) budget.exhausted();
    if (test(element)) out.push(element);
    if (element.localName !== 'template') pushChildren(element);
  }
  return out;
}
