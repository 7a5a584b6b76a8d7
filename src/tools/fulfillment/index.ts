import type { AnyTool } from "../define.js";
import { trackOrder } from "./track-order.js";

export const tools: AnyTool[] = [trackOrder];
