/**
 * An own property even for the key "__proto__", which plain assignment would turn into the
 * prototype: keys read from upstream data (page ids, warehouse and tag names) are untrusted text
 * like any value. Only that key takes the slow defineProperty path: results run through here whole.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
