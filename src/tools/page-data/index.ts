import type { AnyTool } from "../define.js";
import { listCallLogs } from "./list-call-logs.js";
import { listPageCustomers } from "./list-page-customers.js";
import { listPosts } from "./list-posts.js";

export const tools: AnyTool[] = [listPageCustomers, listPosts, listCallLogs];
