import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/**
 * src/'s import graph: each module (its path below src/) to the modules it imports. Every import
 * counts, type-only ones, re-exports and dynamic import() included: a circle of type imports still
 * ties its files into one unit that cannot be read, moved or tested apart.
 */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), "utf8"), true, true);
    const targets = importedFiles
      .filter((ref) => ref.fileName.startsWith("."))
      .map((ref) => relative(SRC, resolve(SRC, dirname(file), ref.fileName.replace(/\.js$/, ".ts"))))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles: Tarjan's strongly connected components of more than one module, or one importing itself. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The shortest chain of imports from `from` to a module `to` accepts, or undefined when there is none. */
function chain(graph: Map<string, string[]>, from: string, to: (file: string) => boolean): string[] | undefined {
  const cameFrom = new Map<string, string>([[from, ""]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]!)!) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, queue[i]!);
      if (to(next)) {
        const path = [next];
        for (let at = queue[i]!; at; at = cameFrom.get(at)!) path.unshift(at);
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** A circle as one loop of imports through it, so a failure says which imports to undo. */
function loopThrough(graph: Map<string, string[]>, circle: string[]): string {
  const members = new Set(circle);
  const inside = new Map([...members].map((f) => [f, graph.get(f)!.filter((t) => members.has(t))]));
  const start = circle[0]!;
  const loop = inside.get(start)!.includes(start) ? [start] : chain(inside, start, (f) => inside.get(f)!.includes(start))!;
  return `${circle.length} modules, e.g. ${[...loop, start].join(" -> ")}`;
}

/** Layers and what none of their modules may reach, directly or through other modules. */
const BELOW = [
  { layer: "text/", reason: "the leaf layer: sanitizing, matching, redaction", never: (f: string) => !f.startsWith("text/") },
  {
    layer: "clients/",
    reason: "the upstream clients sit below formatting, tools and the MCP server",
    never: (f: string) => /^(format|tools|transports)\//.test(f) || f === "server.ts",
  },
];

describe("src's import graph", () => {
  const graph = importGraph();

  it("reads every module and its imports", () => {
    // The graph is only as good as its reading: these imports exist, of every kind.
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get("cli.ts")).toContain("server.ts");
    expect(graph.get("cli.ts")).toContain("demo.ts");
    expect(graph.get("tools/define.ts")).toContain("config.ts");
  });

  it("has no import circle", () => {
    expect(circles(graph).map((circle) => loopThrough(graph, circle))).toEqual([]);
  });

  it.each(BELOW)("keeps $layer below the layers above it ($reason)", ({ layer, never }) => {
    const reached = [...graph.keys()]
      .filter((file) => file.startsWith(layer))
      .map((file) => chain(graph, file, never))
      .filter((path) => path !== undefined)
      .map((path) => path.join(" -> "));
    expect(reached).toEqual([]);
  });
});
