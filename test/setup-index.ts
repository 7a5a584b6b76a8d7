import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Servers the tests spawn keep their shop index on disk by default: in a folder of the test run's
// own, never the user's cache folder.
process.env.PANCAKE_INDEX_DIR ??= mkdtempSync(join(tmpdir(), "pancake-mcp-test-index-"));
