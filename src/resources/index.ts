import type { ResourceDefinition } from "./define.js";

/** Every resource the server offers; each module adds its own. */
export const resources: ResourceDefinition[] = [];
