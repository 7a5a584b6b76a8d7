// Types for scripts/test-deps.mjs (plain Node, so that it runs before `npm ci`), for its test.
export declare const CHROMIUM: string;
export declare function onPath(name: string, path: string | undefined): string | undefined;
export declare function ensureTestDeps(options?: {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  chromium?: string;
  log?: (line: string) => void;
}): number;
