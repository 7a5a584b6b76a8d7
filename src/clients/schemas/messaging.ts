import { z } from "zod";

/*
 * Records of the messaging API. Lenient on purpose: every field may be missing or null, unknown
 * fields pass through, and ids that arrive as numbers become strings. The client falls back to
 * the raw record when even this does not match, so no upstream data is ever dropped.
 */

const id = z.union([z.string(), z.number()]).transform(String);
const text = z.string().nullish();
const int = z.number().nullish();
const flag = z.boolean().nullish();
const list = z.array(z.unknown()).nullish();
const ids = z.array(id).nullish();
/** Ad metrics are strings upstream; numbers are accepted and written as strings. */
const metric = z.union([z.string(), z.number()]).transform(String).nullish();

const person = z.looseObject({ id: id.nullish(), name: text, email: text });

export const pageSchema = z.looseObject({
  id,
  name: text,
  platform: text,
  avatar_url: text,
  is_activated: flag,
  timezone: int,
  settings: z.looseObject({ page_access_token: text }).nullish(),
  users: list,
});
export type MessagingPage = z.output<typeof pageSchema>;

export const conversationSchema = z.looseObject({
  id,
  page_id: id.nullish(),
  customer_id: id.nullish(),
  type: text,
  inserted_at: text,
  updated_at: text,
  /** Tag ids (the spec) or tag objects (the vendor's OpenAPI). */
  tags: list,
  tag_histories: list,
  assignee_histories: list,
  current_assign_users: z.array(person.extend({ fb_id: id.nullish() })).nullish(),
  assignee_ids: ids,
  assignee_group_id: id.nullish(),
  customers: z.array(person.extend({ fb_id: id.nullish(), avatar_url: text })).nullish(),
  from: person.nullish(),
  from_psid: id.nullish(),
  has_phone: flag,
  recent_phone_numbers: list,
  post_id: id.nullish(),
  ad_ids: ids,
  last_sent_by: person.extend({ admin_id: id.nullish(), admin_name: text }).nullish(),
  last_customer_interactive_at: text,
  message_count: int,
  snippet: text,
  seen: flag,
  unread_count: int,
  read_watermarks: list,
  recent_seen_users: list,
  is_combined: flag,
  is_removed: flag,
  thread_id: id.nullish(),
  thread_key: text,
});
export type Conversation = z.output<typeof conversationSchema>;

export const messageSchema = z.looseObject({
  id,
  conversation_id: id.nullish(),
  page_id: id.nullish(),
  type: text,
  /** HTML. */
  message: text,
  /** Plain text. */
  original_message: text,
  from: person.extend({ admin_id: id.nullish(), admin_name: text, uid: id.nullish() }).nullish(),
  inserted_at: text,
  attachments: list,
  has_phone: flag,
  phone_info: list,
  is_removed: flag,
  is_hidden: flag,
  is_parent: flag,
  is_parent_hidden: flag,
  parent_id: id.nullish(),
  like_count: int,
  is_livestream_order: z.unknown(),
  private_reply_conversation: id.nullish(),
});
export type Message = z.output<typeof messageSchema>;

export const tagSchema = z.looseObject({ id, text, color: text, lighten_color: text, description: text });
export type Tag = z.output<typeof tagSchema>;

export const pageCustomerSchema = z.looseObject({
  id: id.nullish(),
  customer_id: id.nullish(),
  psid: id.nullish(),
  name: text,
  gender: text,
  birthday: z.unknown(),
  lives_in: text,
  phone_numbers: ids,
  inserted_at: text,
  updated_at: text,
});
export type PageCustomer = z.output<typeof pageCustomerSchema>;

export const postSchema = z.looseObject({
  id,
  page_id: id.nullish(),
  from: person.nullish(),
  message: text,
  story: text,
  type: text,
  status_type: text,
  inserted_at: text,
  comment_count: int,
  like_count: int,
  phone_number_count: int,
  link: text,
  privacy: text,
  attachments: z.unknown(),
  admin_creator: z.unknown(),
  live_video_status: text,
  delete_comment: flag,
  hide_comment: flag,
  ignore_comment: flag,
  is_removed: flag,
});
export type Post = z.output<typeof postSchema>;

export const pageUserSchema = z.looseObject({
  id,
  name: text,
  email: text,
  fb_id: id.nullish(),
  status: text,
  status_in_page: text,
  is_online: flag,
  page_permissions: z.unknown(),
});
export type PageUser = z.output<typeof pageUserSchema>;

export const callLogSchema = z.looseObject({
  id: id.nullish(),
  type: text,
  direction: text,
  client_type: text,
  client_hangup: flag,
  created_time: text,
  answered_time: text,
  hangup_time: text,
  phone_number: id.nullish(),
  employee_name: text,
  record_file: text,
});
export type CallLog = z.output<typeof callLogSchema>;

export const adRecordSchema = z.looseObject({
  account_id: id.nullish(),
  campaign_id: id.nullish(),
  adset_id: id.nullish(),
  ad_id: id.nullish(),
  name: text,
  status: text,
  currency: text,
  date: text,
  budget_remaining: metric,
  daily_budget: metric,
  lifetime_budget: metric,
  cpc: metric,
  cpm: metric,
  ctr: metric,
  impressions: metric,
  link_click: metric,
  messaging_conversation_started_7d: metric,
  messaging_first_reply: metric,
  post_comments: metric,
  purchase_roas: metric,
  purchases: metric,
  purchases_conversion_value: metric,
  reach: metric,
  spend: metric,
});
export type AdRecord = z.output<typeof adRecordSchema>;

const series = z.looseObject({ name: text, data: z.array(z.number().nullable()).nullish() });
export const engagementSchema = z.looseObject({
  categories: z.array(z.string()).nullish(),
  series: z.array(series).nullish(),
  users_engagements: list,
});
export type EngagementStats = z.output<typeof engagementSchema>;

export const hourlyEngagementSchema = z.looseObject({
  hour: z.union([z.number(), z.string()]).nullish(),
  inbox: int,
  comment: int,
  total: int,
  new_customer: int,
  new_customer_from_inbox: int,
});
export type HourlyEngagement = z.output<typeof hourlyEngagementSchema>;

export const pageHourSchema = z.looseObject({
  hour: text,
  hour_in_integer: z.union([z.string(), z.number()]).nullish(),
  customer_comment_count: int,
  customer_inbox_count: int,
  inbox_interactive_count: int,
  new_customer_count: int,
  new_inbox_count: int,
  page_comment_count: int,
  page_inbox_count: int,
  phone_number_count: int,
  today_uniq_website_referral: int,
  today_website_guest_referral: int,
  uniq_phone_number_count: int,
});
export type PageHourStats = z.output<typeof pageHourSchema>;

const chart = z.looseObject({
  categories: z.array(z.string()).nullish(),
  series: z.record(z.string(), z.array(z.number().nullable())).nullish(),
});
export const tagStatsSchema = z.looseObject({ data: chart.nullish(), data_today: chart.nullish(), tags: z.array(tagSchema).nullish() });
export type TagStats = z.output<typeof tagStatsSchema>;

export const staffRowSchema = z.looseObject({
  page_id: id.nullish(),
  hour: text,
  hour_in_integer: z.union([z.string(), z.number()]).nullish(),
  user_name: text,
  user_fb_id: id.nullish(),
  /** Seconds, as the live service measures it. */
  average_response_time: int,
  comment_count: int,
  inbox_count: int,
  phone_number_count: int,
  private_reply_count: int,
  unique_comment_count: int,
  unique_inbox_count: int,
  order_count: int,
});
export type StaffStatsRow = z.output<typeof staffRowSchema>;

export const staffStatsSchema = z.looseObject({
  statistics: z.record(z.string(), z.array(staffRowSchema)).nullish(),
  users: z.record(z.string(), staffRowSchema).nullish(),
});
export type StaffStats = z.output<typeof staffStatsSchema>;

export const newCustomerRowSchema = z.looseObject({
  date: text,
  new_customer_count: int,
  new_page_inbox_count: int,
  new_phone_number_count: int,
  phone_number_count: int,
});
export type NewCustomerRow = z.output<typeof newCustomerRowSchema>;

export const newCustomerStatsSchema = z.union([
  z.array(newCustomerRowSchema),
  z.record(z.string(), z.array(newCustomerRowSchema)),
]);
export type NewCustomerStats = z.output<typeof newCustomerStatsSchema>;

export const tagUpdateSchema = z.looseObject({ data: ids, timestamp: int });
export type TagUpdate = z.output<typeof tagUpdateSchema>;

export const sendResultSchema = z.looseObject({ id: id.nullish(), message: text });
export type SendResult = z.output<typeof sendResultSchema>;

export const usersResponseSchema = z.looseObject({
  users: z.array(pageUserSchema).nullish(),
  disabled_users: z.array(pageUserSchema).nullish(),
  round_robin_users: z.looseObject({ inbox: ids, comment: ids }).nullish(),
});
export type PageUsers = z.output<typeof usersResponseSchema>;
