import type { AnyTool } from "../define.js";
import { createProduct } from "./create-product.js";
import { updateProductPrices } from "./update-product-prices.js";

export const tools: AnyTool[] = [createProduct, updateProductPrices];
