import type { AnyTool } from "../define.js";
import { createCombo } from "./create-combo.js";
import { listCombos } from "./list-combos.js";
import { listPromotions } from "./list-promotions.js";
import { savePromotion } from "./save-promotion.js";

export const tools: AnyTool[] = [listPromotions, savePromotion, listCombos, createCombo];
