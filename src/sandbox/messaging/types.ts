/**
 * Records of the simulated messaging upstream. They are stored in the upstream's own shape
 * (snake_case, UTC times without a zone suffix) so routes return them as they are; fields the
 * upstream would not send live outside the records (see MessagingState).
 */

export type ConversationType = "INBOX" | "COMMENT" | "RATING" | "COMMENT_LIVESTREAM";

export interface PageRecord {
  id: string;
  name: string;
  /** Lowercase, as the live page list sends it. */
  platform: "facebook" | "instagram_official" | "zalo";
  avatar_url: string;
  is_activated: boolean;
  /** Hours east of UTC; every seeded page is Vietnamese (7). */
  timezone: number;
  inserted_at: string;
  settings: { page_access_token: string; auto_create_order: boolean };
  /** Staff of the page as the live page list embeds them. */
  users: Array<{ user_id: string; name: string; fb_id: string; status: string }>;
}

export interface StaffUser {
  id: string;
  name: string;
  email: string;
  fb_id: string;
  status: "available" | "busy" | "offline";
  is_online: boolean;
  /** Pages this person works on. */
  page_ids: string[];
  /** Disabled on these pages (listed under `disabled_users`). */
  disabled_page_ids: string[];
}

export interface TagRecord {
  id: number;
  text: string;
  color: string;
  lighten_color: string;
  description?: string;
}

export interface AssignUser {
  id: string;
  name: string;
  email: string;
  fb_id: string;
}

export interface TagHistory {
  conversation_id: string;
  inserted_at: string;
  payload: {
    action: "add" | "remove";
    /** Staff id, or "" when done through the API. */
    editor_id: string;
    editor_name: string;
    tag: { id: number; text: string };
  };
}

export interface AssigneeHistory {
  conversation_id: string;
  inserted_at: string;
  payload: { added_users: AssignUser[]; deleted_users: AssignUser[] };
}

export interface PhoneCapture {
  captured: string;
  length: number;
  m_content: string;
  m_id: string;
  offset: number;
  phone_number: string;
  status: number;
}

export interface Sender {
  id: string;
  name: string;
  email?: string;
  /** Present on messages sent by page staff. */
  admin_id?: string;
  admin_name?: string;
  uid?: string;
}

export interface Attachment {
  type: "photo" | "file" | "sticker";
  url: string;
  name?: string;
  mime_type?: string;
}

export interface MessageRecord {
  id: string;
  conversation_id: string;
  page_id: string;
  type: "INBOX" | "COMMENT" | "RATING";
  message: string;
  original_message: string;
  from: Sender;
  inserted_at: string;
  attachments: Attachment[];
  has_phone: boolean;
  phone_info: PhoneCapture[];
  is_removed: boolean;
  is_hidden: boolean;
  is_parent: boolean;
  is_parent_hidden: boolean;
  like_count: number | null;
  is_livestream_order: boolean | null;
  parent_id: string | null;
  /** Set on a comment once a private reply was sent from it. */
  private_reply_conversation: string | null;
}

export interface ConversationRecord {
  id: string;
  page_id: string;
  customer_id: string;
  type: ConversationType;
  inserted_at: string;
  updated_at: string;
  tags: number[];
  tag_histories: TagHistory[];
  assignee_histories: AssigneeHistory[];
  current_assign_users: AssignUser[];
  assignee_ids: string[];
  assignee_group_id: string | null;
  customers: Array<{ id: string; fb_id: string; name: string; avatar_url: string }>;
  from: { id: string; name: string; email: string | null };
  from_psid: string | null;
  has_phone: boolean;
  recent_phone_numbers: PhoneCapture[];
  post_id: string | null;
  ad_ids: string[];
  last_sent_by: Sender;
  last_customer_interactive_at: string | null;
  message_count: number;
  snippet: string;
  seen: boolean;
  unread_count: number;
  read_watermarks: Array<{ message_id: string; psid: string; watermark: number }> | null;
  recent_seen_users: Array<{ fb_id: string; fb_name: string; seen_at: string }>;
  is_combined: boolean;
  is_removed: boolean;
  thread_id: string | null;
  thread_key: string | null;
}

export interface PageCustomerRecord {
  id: string;
  customer_id: string;
  page_id: string;
  psid: string;
  name: string;
  gender: "male" | "female" | null;
  birthday: string | null;
  lives_in: string;
  phone_numbers: string[];
  inserted_at: string;
  updated_at: string;
  can_inbox: boolean;
  thread_id: string | null;
  /** The person's platform-wide id, as the message list's customers carry it (the OpenAPI's MessageCustomer). */
  global_id?: string | null;
  /** Shipping addresses saved from the chat (MessageCustomer.shop_customer_addresses). */
  shop_customer_addresses?: { full_name: string; phone_number: string | null; address: string | null; full_address: string; province_id: string | null; district_id: string | null; commune_id: string | null }[];
}

export interface PostRecord {
  id: string;
  page_id: string;
  from: { id: string; name: string };
  message: string;
  story: string | null;
  type: "photo" | "video" | "text" | "livestream";
  status_type: string;
  inserted_at: string;
  like_count: number;
  link: string;
  privacy: string;
  attachments: Attachment[];
  admin_creator: { id: string; name: string } | null;
  live_video_status: "LIVE" | "VOD" | null;
  delete_comment: boolean;
  hide_comment: boolean;
  ignore_comment: boolean;
  is_removed: boolean;
}

/**
 * A call of the page's call centre. The seed document's fields, plus the vendor OpenAPI's
 * (call_id, caller, callee, start_time, duration, status), which its answer lists under `data`.
 */
export interface CallLogRecord {
  id: string;
  call_id: string;
  /** Who dialled and who was called: the customer's phone and the page's call-centre number. */
  caller: string;
  callee: string;
  start_time: string;
  /** Seconds talked; 0 for a missed call. */
  duration: number;
  status: "completed" | "missed";
  page_id: string;
  type: "call";
  direction: "inbound" | "outbound";
  client_type: "web" | "mobile";
  client_hangup: boolean;
  created_time: string;
  answered_time: string | null;
  hangup_time: string;
  phone_number: string;
  employee_name: string;
  record_file: string | null;
}

export interface AdRecord {
  account_id: string;
  campaign_id: string;
  adset_id: string;
  ad_id: string;
  page_id: string;
  name: string;
  status: "ACTIVE" | "PAUSED";
  currency: "VND";
}

export interface CampaignRecord {
  account_id: string;
  campaign_id: string;
  page_id: string;
  name: string;
  status: "ACTIVE" | "PAUSED";
  currency: "VND";
  daily_budget: number;
  lifetime_budget: number;
}

/** One ad's delivery on one page-local day; the ad statistics are sums of these. */
export interface AdDayRecord {
  ad_id: string;
  /** Page-local day, YYYY-MM-DD. */
  date: string;
  impressions: number;
  reach: number;
  link_click: number;
  spend: number;
  messaging_conversation_started_7d: number;
  messaging_first_reply: number;
  post_comments: number;
  purchases: number;
  purchases_conversion_value: number;
}

/** A private reply sent from a comment: who sent it, when, and where it landed. */
export interface PrivateReplyRecord {
  page_id: string;
  post_id: string;
  comment_id: string;
  comment_conversation_id: string;
  inbox_conversation_id: string;
  message_id: string;
  sender_id: string;
  inserted_at: string;
}

export interface UploadRecord {
  page_id: string;
  name: string;
  mime_type: string;
  size: number;
  attachment_type: "PHOTO" | "VIDEO" | "DOCUMENT";
}

/** A change a write made, as the page's webhooks tell of it (the records as they are now). */
export type MessagingChange =
  | { type: "message"; conversation: ConversationRecord; message: MessageRecord }
  | { type: "conversation"; conversation: ConversationRecord };

export interface MessagingState {
  /** The seed instant ("today"); routes run a clock that starts here. */
  now: Date;
  userToken: string;
  /** The staff member the user token belongs to (the shop owner). */
  ownerId: string;
  pages: PageRecord[];
  /** Pages of the account that are switched off in the inbox (no routes serve them). */
  inactivePages: PageRecord[];
  staff: StaffUser[];
  tags: Record<string, TagRecord[]>;
  conversations: ConversationRecord[];
  /**
   * Messages per conversation id, oldest first. Those of a scaled shop's copies (SandboxOptions.scale)
   * are built from the original's each time they are read, and held once a write gives a copy a
   * list of its own (messaging/scale.ts): the statistics, which read every message of a page, build
   * its copies' on each call (seconds at 1000x) rather than hold them. They are computed over the
   * copies all the same: figures that ignored them would not be the shop's.
   */
  messages: Record<string, MessageRecord[]>;
  customers: PageCustomerRecord[];
  posts: PostRecord[];
  callLogs: CallLogRecord[];
  /** Call-center subscription id per page (only pages with a call center have one). */
  sipPackages: Record<string, string>;
  campaigns: CampaignRecord[];
  ads: AdRecord[];
  adDays: AdDayRecord[];
  /** Page whose account may not read ad reports: its ad endpoints answer 403. */
  adsDeniedPageId: string;
  privateReplies: PrivateReplyRecord[];
  /**
   * When each seeded conversation began before its first message was set at a busy hour of its
   * day (UTC ms): the same span before `now` whatever the time of day the sandbox starts at, which
   * that hour is not. The POS seed ties orders to their threads by it (pos/seed-links.ts).
   */
  begun: Record<string, number>;
  /** Files uploaded through upload_contents, by content id. */
  uploads: Record<string, UploadRecord>;
  /** Conversation ids of the hostile records kept for security tests. */
  hostileConversationIds: string[];
  /** Counter behind the ids of records created through the API. */
  sequence: number;
  /** Told of every change a write makes, after it is made (the sandbox's webhooks); none while seeding. */
  onChange?: (change: MessagingChange) => void;
  /** Changes made through the write paths so far (writes.ts): the lists' orderings are kept while it stays. */
  revision?: number;
}
