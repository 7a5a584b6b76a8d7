import type { AnyTool } from "../define.js";
import { addCustomerNote } from "./add-customer-note.js";
import { createCustomerPromotions } from "./create-customer-promotions.js";
import { listCustomerLevels } from "./list-customer-levels.js";
import { listCustomerNotes } from "./list-customer-notes.js";
import { listCustomerPointLogs } from "./list-customer-point-logs.js";
import { saveCustomer } from "./save-customer.js";
import { searchCustomers } from "./search-customers.js";

export const tools: AnyTool[] = [
  searchCustomers,
  saveCustomer,
  listCustomerPointLogs,
  listCustomerNotes,
  addCustomerNote,
  listCustomerLevels,
  createCustomerPromotions,
];
