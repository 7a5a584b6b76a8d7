import { readFileSync } from "node:fs";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { describe, expect, it } from "vitest";

const text = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
const pkg = JSON.parse(text("package.json"));
const server = JSON.parse(text("server.json"));
// The MCP registry's server.json schema, vendored (test/vendor/mcp-registry/README.md says from where).
const schema = JSON.parse(text("test/vendor/mcp-registry/server.schema.json"));

describe("server.json for the MCP registry", () => {
  it("validates against the registry's server.json schema", () => {
    expect(server.$schema).toBe(schema.$id);
    const result = new AjvJsonSchemaValidator().getValidator(schema)(server);
    expect(result.valid, result.errorMessage).toBe(true);
  });

  it("the schema check can fail (a version range, a missing description)", () => {
    const validate = new AjvJsonSchemaValidator().getValidator(schema);
    expect(validate({ ...server, packages: [{ ...server.packages[0], version: "latest" }] }).valid).toBe(false);
    const { description: _, ...undescribed } = server;
    expect(validate(undescribed).valid).toBe(false);
  });

  it("names the npm package as published: name, version, mcpName and repository agree with package.json", () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    const [npm] = server.packages;
    expect(npm).toMatchObject({ registryType: "npm", identifier: pkg.name, version: pkg.version, transport: { type: "stdio" } });
    expect(server.packages).toHaveLength(1);
    expect(pkg.repository.url).toBe(`git+${server.repository.url}.git`);
  });

  it("describes every environment variable the server reads, and marks the secrets", () => {
    const config = text("src/config.ts");
    const readFromEnv = [...new Set([...config.matchAll(/env\.(PANCAKE_[A-Z_]+)/g)].map((m) => m[1]!))].sort();
    const described = new Map<string, { description?: string; isSecret?: boolean }>(
      server.packages[0].environmentVariables.map((v: { name: string }) => [v.name, v]),
    );
    expect(readFromEnv.length).toBeGreaterThan(10);
    expect([...described.keys()].sort()).toEqual(readFromEnv);
    for (const v of described.values()) expect(v.description, JSON.stringify(v)).toBeTruthy();
    for (const secret of ["PANCAKE_ACCESS_TOKEN", "PANCAKE_PAGE_ACCESS_TOKENS", "PANCAKE_POS_API_KEY", "PANCAKE_MCP_TOKEN"]) {
      expect(described.get(secret)?.isSecret, secret).toBe(true);
    }
  });
});
