import type { AnyTool } from "../define.js";
import { generatePageAccessToken } from "./generate-page-access-token.js";
import { listPageUsers } from "./list-page-users.js";
import { listPages } from "./list-pages.js";

export const tools: AnyTool[] = [listPages, listPageUsers, generatePageAccessToken];
