import { readFile } from "node:fs/promises";

/**
 * The built view files (scripts/build-views.mjs writes dist/ui/NAME.html). This module is loaded
 * with import(), so in the bundle it sits in dist/chunks/ and from the sources in src/ui/: from
 * both, ../../dist/ui/ is the package's dist/ui.
 */
const DIR = new URL("../../dist/ui/", import.meta.url);
const cache = new Map<string, Promise<string>>();

export function viewHtml(view: string): Promise<string> {
  let html = cache.get(view);
  if (!html) {
    html = readFile(new URL(`${view}.html`, DIR), "utf8");
    // A failed read (no build yet) is not remembered: the next read tries again.
    html.catch(() => cache.delete(view));
    cache.set(view, html);
  }
  return html;
}
