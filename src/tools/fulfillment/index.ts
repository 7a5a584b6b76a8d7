import type { AnyTool } from "../define.js";
import { tagOrder } from "./tag-order.js";
import { trackOrder } from "./track-order.js";

export const tools: AnyTool[] = [tagOrder, trackOrder];
