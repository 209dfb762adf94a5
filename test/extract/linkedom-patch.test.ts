/**
 * linkedom's `className` (and so `getAttribute('class')`) read from the attribute
 * (src/extract/html/read/linkedom-patch.ts) must give what linkedom's own getter gives, the class
 * list joined by one space, however the classes were set.
 */
import { Element } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { DomElement } from '../../src/extract/html/dom.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';

type Classy = DomElement & {
  classList: Iterable<string> & { add(...t: string[]): void; remove(...t: string[]): void; toggle(t: string): boolean };
};

/** What linkedom 0.18's own getter returns. */
const listed = (element: Classy): string => [...element.classList].join(' ');

function expectAgreement(element: Classy): void {
  expect(element.className).toBe(listed(element));
  expect(element.getAttribute('class')).toBe(listed(element));
}

describe('linkedom className read from the attribute', () => {
  // A fresh page for each test: the tests change its classes.
  const byId = (id: string): Classy =>
    parseDocument(
      '<div id="messy" class="  b  a b \n c "></div><p id="none">x</p><span id="blank" class="   "></span>',
    ).querySelector(`#${id}`) as Classy;

  it('is the patched getter', () => {
    const getter = Object.getOwnPropertyDescriptor(Element.prototype, 'className')?.get;
    expect(String(getter)).toContain('getAttributeNode');
  });

  it('agrees on parsed elements: repeated classes and runs of white space, none, blank', () => {
    expect(byId('messy').className).toBe('b a c');
    for (const id of ['messy', 'none', 'blank']) expectAgreement(byId(id));
    expect(byId('none').getAttribute('class')).toBe('');
  });

  it('agrees after every way of changing the classes', () => {
    const element = byId('messy');
    element.classList.add('d', 'a');
    expectAgreement(element);
    element.classList.remove('b');
    expectAgreement(element);
    element.classList.toggle('e');
    expectAgreement(element);
    element.setAttribute('class', ' x  y x ');
    expectAgreement(element);
    expect(element.className).toBe('x y');
    element.className = 'p  q';
    expectAgreement(element);
    element.removeAttribute('class');
    expectAgreement(element);
    expect(element.className).toBe('');
  });

  it('agrees on copies and on markup set through innerHTML', () => {
    const copy = byId('messy').cloneNode(true) as Classy;
    expectAgreement(copy);
    const host = byId('none');
    host.innerHTML = '<b class="k  k l">y</b>';
    const inner = host.querySelector('b') as Classy;
    expectAgreement(inner);
    expect(inner.className).toBe('k l');
  });
});
