import type { ResourceDefinition } from "./define.js";

export const posResources: ResourceDefinition[] = [];
