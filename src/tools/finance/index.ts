import type { AnyTool } from "../define.js";
import { createTransaction } from "./create-transaction.js";
import { listDebts } from "./list-debts.js";
import { listPaymentHistories } from "./list-payment-histories.js";
import { listTransactions } from "./list-transactions.js";
import { recordAdCost } from "./record-ad-cost.js";

export const tools: AnyTool[] = [listTransactions, createTransaction, recordAdCost, listPaymentHistories, listDebts];
