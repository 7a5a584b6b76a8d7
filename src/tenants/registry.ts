import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Config } from "../config.js";
import { readTenantsFile } from "./file.js";
import { fileTenant, type Tenant, type TenantDeps } from "./index.js";

/**
 * The tenants of PANCAKE_MCP_TENANTS by the SHA-256 of their bearer token (the token itself is
 * never stored). Reloading (SIGHUP) swaps the whole set at once; a tenant whose entry did not
 * change keeps its clients, caches and place in the rate limit. A file that does not pass the
 * checks changes nothing.
 */
export class TenantRegistry {
  private byDigest = new Map<string, Tenant>();

  constructor(
    private readonly path: string,
    private readonly base: Config,
    private readonly deps: TenantDeps,
  ) {}

  /** Reads the file; throws TenantsFileError (naming tenant and field) when it is not valid. */
  load(): number {
    const previous = new Map([...this.byDigest.values()].map((t) => [t.id, t]));
    const next = new Map<string, Tenant>();
    for (const spec of readTenantsFile(this.path, this.base)) {
      const kept = previous.get(spec.id);
      next.set(spec.tokenDigest, kept && isDeepStrictEqual(kept.config, spec.config) ? kept : fileTenant(spec.id, spec.config, this.deps));
    }
    this.byDigest = next;
    return next.size;
  }

  /** The tenant whose token this is. A hash lookup: the digest, not the token, is compared. */
  find(token: string): Tenant | undefined {
    return this.byDigest.get(createHash("sha256").update(token).digest("hex"));
  }

  /** Every tenant, as loaded last. */
  all(): Tenant[] {
    return [...this.byDigest.values()];
  }

  get size(): number {
    return this.byDigest.size;
  }
}
