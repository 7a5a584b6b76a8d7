import type { AnyTool } from "../define.js";

export const tools: AnyTool[] = [];
