import type { AnyTool } from "../define.js";
import { callApiRead } from "./call-api-read.js";
import { callApiWrite } from "./call-api-write.js";
import { findApiOperations } from "./find-api-operations.js";

export const tools: AnyTool[] = [findApiOperations, callApiRead, callApiWrite];
