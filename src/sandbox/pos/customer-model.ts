import { nextUuid, type PosState } from "./state.js";
import type { CustomerRecord } from "./types.js";

/** A customer created through the API (or by a first order), with the defaults of the service. */
export function newCustomer(state: PosState, at: string, fields: Partial<CustomerRecord> = {}): CustomerRecord {
  return {
    id: nextUuid(state),
    customer_id: nextUuid(state),
    name: "",
    gender: null,
    emails: [],
    phone_numbers: [],
    date_of_birth: null,
    reward_point: 0,
    is_discount_by_level: true,
    tags: [],
    is_block: false,
    assigned_user_id: null,
    level_id: null,
    shop_customer_address: [],
    order_count: 0,
    succeed_order_count: 0,
    purchased_amount: 0,
    last_order_at: null,
    fb_id: null,
    pages_customers: [],
    conversation_link: null,
    inserted_at: at,
    updated_at: at,
    ...fields,
  };
}
