// The third-party notices of the bundle: every package esbuild put code of into dist/, with its
// version, declared licence and the text of its licence file, as the MIT, ISC, BSD and Apache
// licences ask of anyone who redistributes the code.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** node_modules/a/node_modules/@s/b/lib/x.js -> node_modules/a/node_modules/@s/b */
function packageDir(input) {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return undefined;
  const rest = input.slice(at + "node_modules/".length).split("/");
  const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  return `${input.slice(0, at)}node_modules/${name}`;
}

async function licenceText(dir) {
  const files = (await readdir(dir)).filter((f) => /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i.test(f)).sort();
  if (files.length === 0) return undefined;
  return (await Promise.all(files.map((f) => readFile(join(dir, f), "utf8")))).join("\n\n").trim();
}

/** Markdown naming each package with code in the bundle (per the esbuild metafile) and its licence. */
export async function thirdPartyNotices(metafile) {
  const dirs = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const dir = bytesInOutput > 0 ? packageDir(input) : undefined;
      if (dir) dirs.add(dir);
    }
  }
  const packages = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    // Some packages carry package.json files in subfolders (zod/v4/...): the one with a name is the package.
    if (!pkg.name) continue;
    packages.push({ name: pkg.name, version: pkg.version, license: pkg.license ?? "UNKNOWN", text: await licenceText(dir) });
  }
  const unique = [...new Map(packages.map((p) => [`${p.name}@${p.version}`, p])).values()].sort((a, b) => a.name.localeCompare(b.name));
  const sections = unique.map((p) =>
    [`## ${p.name} ${p.version}`, "", `License: ${p.license}`, "", p.text ? `\`\`\`\n${p.text}\n\`\`\`` : "(the package ships no licence file; its package.json declares the licence above)"].join("\n"),
  );
  return [
    "# Third-party notices",
    "",
    "pancake-mcp's bin is one bundle (dist/) that contains code from the packages below. Each is listed",
    "with its version and licence; the licence texts follow as each package ships them.",
    "",
    ...sections.flatMap((s) => [s, ""]),
  ].join("\n");
}
