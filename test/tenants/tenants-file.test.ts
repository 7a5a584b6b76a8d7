import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { makeConfig } from "../../src/config.js";
import { readTenantsFile, TenantsFileError } from "../../src/tenants/file.js";

const digest = (c: string) => c.repeat(64);

function tenants(entries: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "tenants-")), "tenants.json");
  writeFileSync(path, JSON.stringify({ tenants: entries }));
  return path;
}

it("gives each tenant its own call-centre ids, never the environment's", () => {
  const base = makeConfig({ callCenterIds: { "111": "env-package" } });
  const [a, b] = readTenantsFile(
    tenants([
      { id: "a", token_sha256: digest("a"), access_token: "token-a-xxxxxxxx", call_center_ids: { "222": "pkg-a" } },
      { id: "b", token_sha256: digest("b"), access_token: "token-b-xxxxxxxx" },
    ]),
    base,
  );
  expect(a!.config.callCenterIds).toEqual({ "222": "pkg-a" });
  expect(b!.config.callCenterIds).toEqual({});
});

it("names the tenant and field of a bad entry", () => {
  const path = tenants([{ id: "a", token_sha256: digest("a"), call_center_ids: { "222": "" } }]);
  expect(() => readTenantsFile(path, makeConfig())).toThrow(TenantsFileError);
  expect(() => readTenantsFile(path, makeConfig())).toThrow(/tenants\[0\] \(a\)\.call_center_ids/);
});

it("names a tenant's tool that does not exist, with the likely one", () => {
  const path = tenants([
    { id: "a", token_sha256: digest("a"), tools: ["search_orders"] },
    { id: "b", token_sha256: digest("b"), tools: ["search_order", "list_pages"] },
  ]);
  expect(() => readTenantsFile(path, makeConfig())).toThrow(
    `PANCAKE_MCP_TENANTS (${path}):\n  tenant b: no tool search_order (did you mean search_orders?); see docs/tools.md or --toolsets`,
  );
});
