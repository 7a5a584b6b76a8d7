import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cleanEnv } from "./helpers/spawn.js";

describe("the test clock", () => {
  it("starts every test process on the same day, whatever the real date", () => {
    expect(new Date().toISOString().slice(0, 10)).toBe("2026-11-22");
  });

  it("is shared by the processes the tests spawn", () => {
    const child = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(Date.now()))"], { env: cleanEnv() }).toString());
    expect(Math.abs(child - Date.now())).toBeLessThan(2_000);
  });
});
