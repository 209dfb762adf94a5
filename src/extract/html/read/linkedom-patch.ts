/**
 * Two performance fixes for linkedom 0.18, applied once on first import; each leaves
 * linkedom as it is if its shape is not the expected one. Its EventTarget constructor put
 * every node into a module-level WeakMap, which V8 marks slowly: `Node` skips that
 * constructor and its listener methods are re-implemented with the same semantics, storing
 * listeners only for nodes that get one. Its `className`, which `getAttribute('class')`
 * returns, joined the element's class list anew on every read: it reads the attribute,
 * which linkedom keeps equal to that list. Figures: docs/extraction-history.md, "The pipeline".
 */

import v8 from 'node:v8';
import { Element as LinkedomElement, EventTarget as LinkedomEventTarget, parseHTML } from 'linkedom';

type Listener = ((event: unknown) => void) | { handleEvent(event: unknown): void };
interface ListenerOptions {
  once?: boolean;
}
interface PathEntry {
  currentTarget: object;
  target: object;
}
interface LinkedomEvent {
  type: string;
  bubbles: boolean;
  eventPhase: number;
  currentTarget?: object;
  target?: object;
  cancelBubble: boolean;
  defaultPrevented: boolean;
  _path: PathEntry[];
  _stopImmediatePropagationFlag: boolean;
  readonly NONE: number;
  readonly CAPTURING_PHASE: number;
  readonly AT_TARGET: number;
  readonly BUBBLING_PHASE: number;
}
interface EventNode {
  dispatchEvent?: unknown;
  _getParent?: () => EventNode | null;
}

const listeners = new WeakMap<object, Map<string, Map<Listener, ListenerOptions | boolean | undefined>>>();

function invoke(event: LinkedomEvent, entry: PathEntry): boolean {
  const byType = listeners.get(entry.currentTarget)?.get(event.type);
  if (byType === undefined) return false;
  event.eventPhase = entry.currentTarget === entry.target ? event.AT_TARGET : event.BUBBLING_PHASE;
  event.currentTarget = entry.currentTarget;
  event.target = entry.target;
  for (const [listener, options] of [...byType]) {
    if (typeof options === 'object' && options?.once) byType.delete(listener);
    if (typeof listener === 'function') listener.call(entry.target, event);
    else listener.handleEvent(event);
    if (event._stopImmediatePropagationFlag) break;
  }
  delete event.currentTarget;
  delete event.target;
  return event.cancelBubble;
}

const nodeEventMethods = {
  addEventListener(this: object, type: string, listener: Listener, options?: ListenerOptions | boolean): void {
    let byType = listeners.get(this);
    if (byType === undefined) listeners.set(this, (byType = new Map()));
    let forType = byType.get(type);
    if (forType === undefined) byType.set(type, (forType = new Map()));
    forType.set(listener, options);
  },
  removeEventListener(this: object, type: string, listener: Listener): void {
    const forType = listeners.get(this)?.get(type);
    if (forType?.delete(listener) && forType.size === 0) listeners.get(this)?.delete(type);
  },
  dispatchEvent(this: EventNode, event: LinkedomEvent): boolean {
    event.eventPhase = event.CAPTURING_PHASE;
    event._path.push({ currentTarget: this, target: this });
    for (let node = event.bubbles && this._getParent?.(); node; node = node._getParent?.()) {
      if (node.dispatchEvent) event._path.push({ currentTarget: node, target: this });
    }
    event._path.some((entry) => invoke(event, entry));
    event._path = [];
    event.eventPhase = event.NONE;
    return !event.defaultPrevented;
  },
};

let applied = false;

export function patchLinkedomEventTargets(): void {
  if (applied) return;
  applied = true;
  // A class given a new parent (below) sends V8 (11, Node 20) into endless re-optimization
  // of its subclasses' constructors when they omit default constructors: every compile is
  // thrown away on a map dependency, a third of a page's CPU (BENCHMARKS.md). The omission
  // is decided when a function is first compiled, so the flag goes before any node is made;
  // it only costs the call of an empty constructor and changes no behaviour.
  v8.setFlagsFromString('--no-omit-default-ctors');
  const base = (LinkedomEventTarget as unknown as { prototype?: object } | undefined)?.prototype;
  if (base === undefined) return;
  // The class right below EventTarget in a text node's prototype chain is `Node`.
  let proto: object | null = Object.getPrototypeOf(parseHTML('<p>x</p>').document.createTextNode('x')) as object | null;
  while (proto !== null && Object.getPrototypeOf(proto) !== base) proto = Object.getPrototypeOf(proto) as object | null;
  const NodeClass = (proto as { constructor?: unknown } | null)?.constructor;
  if (typeof NodeClass !== 'function' || Object.getPrototypeOf(NodeClass) !== LinkedomEventTarget) return;
  Object.setPrototypeOf(NodeClass, class NoListenerStorage {});
  Object.assign(NodeClass.prototype as object, nodeEventMethods);
}

let classNameApplied = false;

/**
 * `className` read from the `class` attribute. linkedom writes that attribute from the class
 * list on every change to either (parse, `className`, `setAttribute`, `classList`), so the
 * two hold the same tokens, once each, joined by one space.
 */
export function patchLinkedomClassName(): void {
  if (classNameApplied) return;
  classNameApplied = true;
  const proto = (LinkedomElement as unknown as { prototype?: object } | undefined)?.prototype;
  const original = proto === undefined ? undefined : Object.getOwnPropertyDescriptor(proto, 'className');
  if (original?.get === undefined || original.set === undefined) return;
  Object.defineProperty(proto, 'className', {
    ...original,
    get(this: { getAttributeNode(name: string): { value: string } | null }): string {
      return this.getAttributeNode('class')?.value ?? '';
    },
  });
}
