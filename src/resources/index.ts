import type { ResourceDefinition } from "./define.js";
import { pageResources } from "./pages.js";
import { posResources } from "./pos.js";

/** Every resource the server offers. */
export const resources: ResourceDefinition[] = [...pageResources, ...posResources];
