import type { ResourceDefinition } from "./define.js";

export const pageResources: ResourceDefinition[] = [];
