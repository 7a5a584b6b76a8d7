import type { AnyTool } from "../define.js";
import { listPages } from "./list-pages.js";

export const tools: AnyTool[] = [listPages];
