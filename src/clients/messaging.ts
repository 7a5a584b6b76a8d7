import type { z } from "zod";
import { ConfigError, InputError, UpstreamError } from "./errors.js";
import { joinedLoad, original } from "./call-signal.js";
import { type HttpCore, listIn, pathOf, type QueryValue, type RequestOptions } from "./http.js";
import { fetchMedia, type Media, multipartFile } from "./media.js";
import { registerSecret } from "../text/redact.js";
import { MemoryScope } from "../state/memory.js";
import type { SharedCache, StateScope } from "../state/scope.js";
import { setOwn } from "../text/own-property.js";
import { bestMatches, nearestName } from "../text/name-match.js";
import { sanitizeName } from "../text/sanitize.js";
import {
  type AdRecord,
  adRecordSchema,
  type CallLog,
  type Conversation,
  callLogSchema,
  conversationSchema,
  type EngagementStats,
  engagementSchema,
  type HourlyEngagement,
  hourlyEngagementSchema,
  type Message,
  type MessagingPage,
  messageSchema,
  type NewCustomerStats,
  newCustomerStatsSchema,
  type PageCustomer,
  type PageHourStats,
  type PageUsers,
  pageCustomerSchema,
  pageHourSchema,
  pageSchema,
  type Post,
  postSchema,
  type SendResult,
  type StaffStats,
  sendResultSchema,
  staffStatsSchema,
  type Tag,
  type TagStats,
  type TagUpdate,
  tagSchema,
  tagStatsSchema,
  tagUpdateSchema,
  usersResponseSchema,
} from "./schemas/messaging.js";

export interface MessagingClientOptions {
  core: HttpCore;
  /** How long a file to send may take to download (the upstream response timeout). */
  mediaTimeoutMs?: number;
  /** PANCAKE_ACCESS_TOKEN: page list, token lookup, sending (else by page token), several-page staff statistics. */
  userToken?: string;
  /** PANCAKE_PAGE_ACCESS_TOKENS: page id -> page token; others are read from the page list. */
  pageTokens?: Record<string, string>;
  /** The tenant's caches (the page list with its tokens among them); default: this client's own memory. */
  state?: StateScope;
}

/** The page list as cached: pages without their tokens, which are apart (and encrypted outside the process). */
interface PageDirectory {
  pages: MessagingPage[];
  activated: string[];
  tokens: Record<string, string>;
}
const DIRECTORY = "directory";

export type ConversationType = "INBOX" | "COMMENT" | "RATING" | "COMMENT_LIVESTREAM";
/** Tag ids as a comma list or an array (`ALL` on the current_count list: any tagged conversation). */
export type TagFilter = string | readonly (string | number)[];
/** Unix seconds. */
export interface TimeSpan {
  since: number;
  until: number;
}

export interface ConversationListParams {
  last_conversation_id?: string;
  tags?: TagFilter;
  type?: readonly ConversationType[];
  post_ids?: readonly string[];
  since?: number;
  until?: number;
  unread_first?: boolean;
  /** The vendor's OpenAPI (not the seed document): the order, and the time since/until read. */
  order_by?: "inserted_at" | "updated_at";
}
export interface PagedConversationParams extends TimeSpan {
  page_number: number;
  order_by?: "inserted_at" | "updated_at";
  tags?: TagFilter;
}
export interface CountedConversationParams {
  tags?: TagFilter;
  current_count?: number;
}
export interface MessageListParams {
  customer_id?: string;
  /** Messages already fetched; the next call returns the 30 older ones. */
  current_count?: number;
}
export interface InboxMessage {
  message?: string;
  content_url?: string;
  attachmentType?: "PHOTO" | "DOCUMENT";
  name?: string;
  mime_type?: string;
  thread_key?: string;
}
export interface CommentReply {
  message?: string;
  /** The comment answered (required by the vendor's OpenAPI). */
  message_id: string;
  content_url?: string;
  /** Required with content_url. */
  image_data?: string;
}
export interface PrivateReply {
  post_id: string;
  /** The comment (required by the vendor's OpenAPI, like from_id, its author's id). */
  message_id: string;
  from_id?: string;
  message: string;
}
export interface PageCustomerParams extends TimeSpan {
  page_number: number;
  page_size?: number;
  order_by?: "inserted_at" | "updated_at";
}
export interface PostParams extends TimeSpan {
  page_number: number;
  page_size: number;
  type?: "video" | "photo" | "text" | "livestream";
}
export interface CallLogParams extends Partial<TimeSpan> {
  /** Call-center subscription id. */
  id: string;
  page_number: number;
  page_size: number;
}
/** `DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS`, page-local time. */
export interface DateTimeRange {
  date_range: string;
}
export interface EngagementParams extends DateTimeRange {
  user_ids?: readonly string[];
}
export interface NewCustomerParams {
  /** `DD/MM/YYYY - DD/MM/YYYY`. */
  date_range: string;
  group_by?: "day" | "hour" | "page_id";
}
export interface MultiPageStaffParams extends DateTimeRange {
  page_ids: readonly string[];
}

type Query = Record<string, QueryValue>;

/** What a page id may look like when it cannot be checked against the page list. */
const PAGE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
export type Call = Pick<RequestOptions, "op" | "path" | "method" | "query" | "body" | "headers" | "expect">;

/** Parses leniently: a record that does not fit its schema is returned as it came. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  return result.success ? result.data : (value as z.output<S>);
}

function parseList<S extends z.ZodType>(schema: S, value: unknown): z.output<S>[] {
  return Array.isArray(value) ? value.map((item) => parse(schema, item)) : [];
}

const field = (body: unknown, ...names: string[]): unknown => {
  const record = (body ?? {}) as Record<string, unknown>;
  return names.map((n) => record[n]).find((v) => v !== undefined);
};

const tagList = (tags: TagFilter | undefined) => (tags === undefined || typeof tags === "string" ? tags : tags.join(","));

/** The page list's grouped form: `{categorized: {activated: [...], inactivated: [...]}}`. */
const isPageGroups = (json: unknown): boolean => listIn("activated", "inactivated")((json as { categorized?: unknown } | null)?.categorized);

/** Without the page token, which stays in the client's cache. */
function withoutToken(page: MessagingPage, activated: boolean): MessagingPage {
  const copy = omitToken(page) as MessagingPage;
  if (page.settings) copy.settings = omitToken(page.settings);
  copy.is_activated = page.is_activated ?? activated;
  return copy;
}

// A loop rather than rest destructuring, which V8 runs through a slow generic path.
function omitToken<T extends object>(record: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (key !== "page_access_token") setOwn(out, key, (record as Record<string, unknown>)[key]);
  }
  return out as T;
}

/** Typed client of the messaging API: one method per endpoint of spec/messaging-api.md. */
export class MessagingClient {
  private readonly core: HttpCore;
  private readonly mediaTimeoutMs: number;
  private readonly userToken: string | undefined;
  /** Page tokens: configured or generated ones (pinned), and ones read from the page list. */
  private readonly tokens = new Map<string, { token: string; pinned: boolean }>();
  /** The page list, read at most once a minute (a page may be new), shared by the tenant's replicas. */
  private readonly directory: SharedCache;
  /** The copy of the page list the maps below were filled from. */
  private applied: PageDirectory | undefined;
  /** Every page of the account (activated or not) by id, with its name, from the last page list. */
  private readonly pageNames = new Map<string, { name: string | undefined; activated: boolean }>();
  private pagesInFlight: Promise<MessagingPage[]> | undefined;
  /** Set once statistics/page_customers answered 404: the seed's statistics/customers serves. */
  private seedCustomerStats = false;

  readonly state: StateScope;

  constructor(options: MessagingClientOptions) {
    this.core = options.core;
    this.state = options.state ?? new MemoryScope();
    // One key: bounded by that (and the upstream's answer cap), so no byte count is kept; the
    // page list is stored on every list_pages call and measuring it each time would cost the call.
    this.directory = this.state.cache("pages", { ttlMs: 60_000, maxEntries: 4, maxBytes: Number.POSITIVE_INFINITY, secret: true });
    this.mediaTimeoutMs = options.mediaTimeoutMs ?? 30_000;
    this.userToken = options.userToken || undefined;
    registerSecret(this.userToken);
    for (const [pageId, token] of Object.entries(options.pageTokens ?? {})) this.remember(pageId, token, true);
  }

  get hasUserToken(): boolean {
    return this.userToken !== undefined;
  }

  // ---- pages (user token) ----

  /**
   * Activated and inactivated pages of the account; page tokens are cached, never returned. Calls
   * that ask while a read runs share it, so it runs on the shared client: one caller cancelling
   * ends only its own wait (call-signal.ts).
   */
  listPages(): Promise<MessagingPage[]> {
    const shared = original(this);
    const share = (start: () => Promise<MessagingPage[]>) =>
      (shared.pagesInFlight ??= start().finally(() => {
        shared.pagesInFlight = undefined;
      }));
    return joinedLoad(shared, "page-list", this as MessagingClient, share, async (client) => {
      const directory = await client.fetchDirectory();
      shared.directory.set(DIRECTORY, directory);
      shared.apply(directory);
      return directory.pages;
    });
  }

  /** Creates or refreshes the page token. The previous token stops working at once. */
  async generatePageAccessToken(pageId: string): Promise<{ page_access_token: string; message?: string }> {
    const body = await this.userCall({
      op: "generate page access token",
      method: "POST",
      path: pathOf`/v1/pages/${pageId}/generate_page_access_token`,
      query: { page_id: pageId },
    });
    const token = field(body, "page_access_token");
    if (typeof token !== "string" || token === "") {
      throw new UpstreamError({ op: "generate page access token", upstreamMessage: "the answer carried no page_access_token" });
    }
    this.remember(pageId, token, true);
    // Every copy of the page list now holds a dead token for this page.
    this.forgetPageList();
    const message = field(body, "message");
    return { page_access_token: token, ...(typeof message === "string" ? { message } : {}) };
  }

  // ---- conversations (page token) ----

  /** v2 list: 60 per call, newest update (or creation, order_by) first; pass the last id seen to get the next 60. */
  async listConversations(pageId: string, params: ConversationListParams = {}): Promise<{ conversations: Conversation[] }> {
    const body = await this.pageCall(pageId, {
      op: "list conversations",
      path: pathOf`/public_api/v2/pages/${pageId}/conversations`,
      query: { ...params, tags: tagList(params.tags) },
      expect: listIn("conversations"),
    });
    return { conversations: parseList(conversationSchema, field(body, "conversations")) };
  }

  /** v1 list by page number (60 per page) with the total; since..until at most one month. */
  async listConversationsPaged(
    pageId: string,
    params: PagedConversationParams,
  ): Promise<{ conversations: Conversation[]; total: number | undefined }> {
    const body = await this.pageCall(pageId, {
      op: "list conversations by page",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations`,
      query: { ...params, tags: tagList(params.tags) },
      expect: listIn("conversations"),
    });
    const total = field(body, "total");
    return { conversations: parseList(conversationSchema, field(body, "conversations")), total: typeof total === "number" ? total : undefined };
  }

  /**
   * The oldest list: 60 most recent, then 40 per step from `current_count` (61 gives 61-100).
   * Under /api/v1, so it takes the user token; it still counts against the page's rate limit.
   */
  async listConversationsByCount(pageId: string, params: CountedConversationParams = {}): Promise<{ conversations: Conversation[] }> {
    const body = await this.userCall(
      {
        op: "list conversations by count",
        path: pathOf`/v1/pages/${pageId}/conversations`,
        query: { ...params, tags: tagList(params.tags) },
        headers: { page_id: pageId },
        expect: listIn("conversations"),
      },
      pageId,
    );
    return { conversations: parseList(conversationSchema, field(body, "conversations")) };
  }

  /** Messages oldest first: the 20 newest, or the 30 older than `current_count`. */
  async listMessages(pageId: string, conversationId: string, params: MessageListParams = {}): Promise<{ messages: Message[] } & Record<string, unknown>> {
    const body = (await this.pageCall(pageId, {
      op: "list messages",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/messages`,
      query: { ...params },
      expect: listIn("messages"),
    })) as Record<string, unknown>;
    const { success: _success, messages, ...rest } = body;
    return { ...rest, messages: parseList(messageSchema, messages) };
  }

  async updateConversationTag(
    pageId: string,
    conversationId: string,
    change: { action: "add" | "remove"; tag_id: string | number },
  ): Promise<TagUpdate> {
    const body = await this.pageCall(pageId, {
      op: `${change.action === "add" ? "add" : "remove"} conversation tag`,
      method: "POST",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/tags`,
      body: { action: change.action, tag_id: String(change.tag_id) },
    });
    return parse(tagUpdateSchema, body);
  }

  /** Replaces the assigned staff (ids from listUsers); returns the updated conversation. */
  async assignConversation(pageId: string, conversationId: string, assigneeIds: readonly string[]): Promise<Conversation> {
    const body = await this.pageCall(pageId, {
      op: "assign conversation",
      method: "POST",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/assign`,
      body: { assignee_ids: [...assigneeIds] },
    });
    const { success: _success, ...conversation } = body as Record<string, unknown>;
    return parse(conversationSchema, conversation);
  }

  async markConversationRead(pageId: string, conversationId: string): Promise<void> {
    await this.pageCall(pageId, {
      op: "mark conversation read",
      method: "POST",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/read`,
    });
  }

  async markConversationUnread(pageId: string, conversationId: string): Promise<void> {
    await this.pageCall(pageId, {
      op: "mark conversation unread",
      method: "POST",
      path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/unread`,
    });
  }

  // ---- sending (user token, else page token) ----

  /**
   * With the user token, the seed's form (the service fetches content_url itself). With the page
   * token, the OpenAPI's: a file is uploaded first (upload_contents) and sent by its content id,
   * and text and content ids are mutually exclusive, so text and file go as two messages.
   */
  async sendInboxMessage(pageId: string, conversationId: string, message: InboxMessage): Promise<SendResult> {
    const op = "send inbox message";
    if (this.userToken || !message.content_url) return this.send(pageId, conversationId, op, { action: "reply_inbox", ...message });
    const upload = await this.uploadFrom(pageId, "content_url", message.content_url);
    const text = message.message?.trim()
      ? await this.send(pageId, conversationId, op, { action: "reply_inbox", message: message.message })
      : undefined;
    const file = { action: "reply_inbox", content_ids: [upload.id], ...(message.attachmentType === "DOCUMENT" ? { filename: message.name } : {}) };
    try {
      return await this.send(pageId, conversationId, op, file);
    } catch (error) {
      if (text?.id && error instanceof Error) error.message = `the text was sent (message ${text.id}), the file was not: ${error.message}`;
      throw error;
    }
  }

  /** As sendInboxMessage: the page-token form sends an image by its uploaded content id, with the text. */
  async replyToComment(pageId: string, conversationId: string, reply: CommentReply): Promise<SendResult> {
    const op = "reply to comment";
    if (this.userToken || !reply.content_url) return this.send(pageId, conversationId, op, { action: "reply_comment", ...reply });
    if (!reply.message?.trim()) {
      throw new InputError("message", "a comment reply with an image needs text too when sending with a page token", "Add a message to go with the image.");
    }
    const upload = await this.uploadFrom(pageId, "content_url", reply.content_url);
    return this.send(pageId, conversationId, op, { action: "reply_comment", message_id: reply.message_id, message: reply.message, content_ids: [upload.id] });
  }

  /** Uploads a file to the page; the id it answers is what page-token sends take as content_ids. */
  async uploadContent(pageId: string, media: Media): Promise<{ id: string; attachment_type?: string }> {
    const { body, contentType } = multipartFile("file", media);
    const answer = await this.pageCall(pageId, {
      op: "upload content",
      method: "POST",
      path: pathOf`/public_api/v1/pages/${pageId}/upload_contents`,
      body,
      headers: { "content-type": contentType },
    });
    const id = field(answer, "id");
    if (typeof id !== "string" || !id) throw new UpstreamError({ op: "upload content", upstreamMessage: "the answer carried no content id" });
    const kind = field(answer, "attachment_type");
    return { id, ...(typeof kind === "string" ? { attachment_type: kind } : {}) };
  }

  /** Downloads a file a tool was asked to send (guarded, see media.ts) and uploads it to the page. */
  async uploadFrom(pageId: string, fieldName: string, url: string, signal?: AbortSignal) {
    const media = await fetchMedia(fieldName, url, { trustedOrigin: new URL(this.core.baseUrl).origin, timeoutMs: this.mediaTimeoutMs, signal: signal ?? this.core.signal });
    return this.uploadContent(pageId, media);
  }

  /** Once per comment, and only for comments at most 7 days old. */
  sendPrivateReply(pageId: string, conversationId: string, reply: PrivateReply): Promise<SendResult> {
    return this.send(pageId, conversationId, "send private reply", { action: "private_replies", ...reply });
  }

  // ---- page data (page token) ----

  async listPageCustomers(pageId: string, params: PageCustomerParams): Promise<{ customers: PageCustomer[]; total: number | undefined }> {
    const body = await this.pageCall(pageId, {
      op: "list page customers",
      path: pathOf`/public_api/v1/pages/${pageId}/page_customers`,
      query: { ...params },
      expect: listIn("customers"),
    });
    const total = field(body, "total");
    return { customers: parseList(pageCustomerSchema, field(body, "customers")), total: typeof total === "number" ? total : undefined };
  }

  async listTags(pageId: string): Promise<Tag[]> {
    const body = await this.pageCall(pageId, { op: "list page tags", path: pathOf`/public_api/v1/pages/${pageId}/tags`, expect: listIn("tags") });
    return parseList(tagSchema, field(body, "tags"));
  }

  async listPosts(pageId: string, params: PostParams): Promise<{ posts: Post[]; total: number | undefined }> {
    const body = await this.pageCall(pageId, {
      op: "list posts",
      path: pathOf`/public_api/v1/pages/${pageId}/posts`,
      query: { ...params },
      expect: listIn("posts"),
    });
    const total = field(body, "total");
    return { posts: parseList(postSchema, field(body, "posts")), total: typeof total === "number" ? total : undefined };
  }

  async listUsers(pageId: string): Promise<PageUsers> {
    const body = await this.pageCall(pageId, { op: "list page users", path: pathOf`/public_api/v1/pages/${pageId}/users` });
    return parse(usersResponseSchema, body);
  }

  /** The spec answers `call_logs`, the vendor's OpenAPI `data`; both are read. */
  async listCallLogs(pageId: string, params: CallLogParams): Promise<CallLog[]> {
    const body = await this.pageCall(pageId, {
      op: "list call logs",
      path: pathOf`/public_api/v1/pages/${pageId}/sip_call_logs`,
      query: { ...params },
      expect: listIn("call_logs", "data"),
    });
    return parseList(callLogSchema, field(body, "call_logs", "data"));
  }

  // ---- statistics (page token unless stated) ----

  async getEngagementStats(pageId: string, params: EngagementParams): Promise<EngagementStats> {
    const body = await this.stats(pageId, "customer_engagements", "get engagement statistics", this.engagementQuery(params, false));
    return parse(engagementSchema, field(body, "data") ?? {});
  }

  async getEngagementStatsByHour(pageId: string, params: EngagementParams): Promise<HourlyEngagement[]> {
    const body = await this.stats(pageId, "customer_engagements", "get hourly engagement statistics", this.engagementQuery(params, true));
    return parseList(hourlyEngagementSchema, field(body, "statistics"));
  }

  /** Hourly rows: `hour` is page-local time, `hour_in_integer` UTC. */
  async getPageStats(pageId: string, params: TimeSpan): Promise<PageHourStats[]> {
    const body = await this.stats(pageId, "pages", "get page statistics", { ...params });
    return parseList(pageHourSchema, field(body, "data"));
  }

  async getTagStats(pageId: string, params: TimeSpan): Promise<TagStats> {
    const body = await this.stats(pageId, "tags", "get tag statistics", { ...params });
    const { success: _success, ...rest } = body as Record<string, unknown>;
    return parse(tagStatsSchema, rest);
  }

  async getStaffStats(pageId: string, params: DateTimeRange): Promise<StaffStats> {
    const body = await this.stats(pageId, "users", "get staff statistics", { ...params });
    return parse(staffStatsSchema, field(body, "data") ?? {});
  }

  /** Several pages at once with the user token; rows add `order_count`. */
  async getMultiPageStaffStats(params: MultiPageStaffParams): Promise<StaffStats> {
    const body = await this.userCall({
      op: "get staff statistics of several pages",
      path: "/v1/statistics/user",
      query: { page_ids: params.page_ids.join(","), date_range: params.date_range },
    });
    return parse(staffStatsSchema, field(body, "data") ?? {});
  }

  /**
   * Rows per day or hour; with group_by `page_id`, an object of rows per page id. The vendor's
   * OpenAPI names the route statistics/page_customers, the seed spec statistics/customers (with
   * page_id repeated in the query): the OpenAPI's form is asked first and, when the service
   * answers 404, the seed's; a 404 is remembered so later calls go straight to the seed's form.
   */
  async getNewCustomerStats(pageId: string, params: NewCustomerParams): Promise<NewCustomerStats> {
    const op = "get new customer statistics";
    let body: unknown;
    if (!this.seedCustomerStats) {
      try {
        body = await this.stats(pageId, "page_customers", op, { ...params });
      } catch (error) {
        if (!(error instanceof UpstreamError) || error.status !== 404) throw error;
        this.seedCustomerStats = true;
      }
    }
    body ??= await this.stats(pageId, "customers", op, { ...params, page_id: pageId });
    return parse(newCustomerStatsSchema, field(body, "data") ?? []);
  }

  async getCampaignStats(pageId: string, params: TimeSpan): Promise<AdRecord[]> {
    const body = await this.stats(pageId, "pages_campaigns", "get ad campaign statistics", { ...params });
    return parseList(adRecordSchema, Array.isArray(body) ? body : field(body, "data"));
  }

  async getAdStats(pageId: string, params: TimeSpan & { type: "by_id" | "by_time" }): Promise<AdRecord[]> {
    const body = await this.stats(pageId, "ads", "get ad statistics", { ...params });
    return parseList(adRecordSchema, Array.isArray(body) ? body : field(body, "data"));
  }

  /**
   * Any documented operation (the `api` toolset): the path already filled from the index's
   * template (server prefix included), query and body already checked against it. The credential
   * is the one the operation takes: the page's token, the user token, or none.
   */
  callOperation(
    call: Call & { method: "GET" | "POST" | "PUT" | "DELETE" },
    auth: "access_token" | "page_access_token" | "none",
    pageId: string | undefined,
  ): Promise<unknown> {
    if (auth === "access_token") return this.userCall(call, pageId);
    if (auth === "none") return this.core.request(call);
    if (!pageId) throw new InputError("params.page_id", "is required: the operation takes the page's token");
    return this.pageCall(pageId, call);
  }

  // ---- internals ----

  private engagementQuery(params: EngagementParams, byHour: boolean): Query {
    return { date_range: params.date_range, by_hour: byHour, user_ids: params.user_ids?.length ? params.user_ids.join(",") : undefined };
  }

  private stats(pageId: string, suffix: string, op: string, query: Query): Promise<unknown> {
    return this.pageCall(pageId, { op, path: pathOf`/public_api/v1/pages/${pageId}/statistics/${suffix}`, query });
  }

  /**
   * The seed's user-token path; without a user token, the vendor's page-token form of it. The
   * seed's private reply has no from_id, which the OpenAPI's page-token form requires.
   */
  private async send(pageId: string, conversationId: string, op: string, body: Record<string, unknown>): Promise<SendResult> {
    const { from_id: _fromId, ...seedBody } = body;
    const answer = this.userToken
      ? await this.userCall({
          op,
          method: "POST",
          path: pathOf`/v1/pages/${pageId}/conversations/${conversationId}/messages`,
          body: seedBody,
          headers: { page_id: pageId, conversation_id: conversationId },
        })
      : await this.pageCall(pageId, {
          op,
          method: "POST",
          path: pathOf`/public_api/v1/pages/${pageId}/conversations/${conversationId}/messages`,
          body,
        });
    return parse(sendResultSchema, answer);
  }

  private requireUserToken(op: string): string {
    if (!this.userToken) throw new ConfigError(`${op} needs the user access token: set PANCAKE_ACCESS_TOKEN.`);
    return this.userToken;
  }

  private userCall(call: Call, rateKey?: string): Promise<unknown> {
    return this.core.request({ ...call, auth: { access_token: this.requireUserToken(call.op) }, ...(rateKey ? { rateKey } : {}) });
  }

  /**
   * A page-token call. A token read from the page list that is refused (code 102) was probably
   * regenerated elsewhere: the list is read once more and the call repeated with the new token.
   */
  private async pageCall(pageId: string, call: Call, tokenParam = "page_access_token"): Promise<unknown> {
    const token = await this.pageToken(pageId, call.op);
    const send = (t: string) => this.core.request({ ...call, auth: { [tokenParam]: t }, rateKey: pageId });
    try {
      return await send(token);
    } catch (error) {
      const entry = this.tokens.get(pageId);
      if (!(error instanceof UpstreamError) || error.code !== 102 || !this.userToken || entry?.pinned || entry?.token !== token) {
        throw error;
      }
      this.tokens.delete(pageId);
      this.forgetPageList();
      const fresh = await this.pageToken(pageId, call.op).catch(() => token);
      if (fresh === token) throw error;
      // A write is never sent twice, not even after a refused token: an upstream can apply the
      // change and still answer 102. The next call uses the fresh token.
      if ((call.method ?? "GET") !== "GET") {
        throw new UpstreamError({
          op: error.op,
          api: error.api,
          status: error.status,
          code: error.code,
          upstreamMessage: error.upstreamMessage,
          hint: "The page's token was refused and a fresh one has been read; the change was not sent again. Check whether it happened (read it back), then retry if it did not.",
        });
      }
      return send(fresh);
    }
  }

  private async pageToken(pageId: string, op: string): Promise<string> {
    const known = this.tokens.get(pageId);
    if (known) return known.token;
    if (!this.userToken) {
      throw new ConfigError(
        `${op}: no page access token for page ${pageId}. Set PANCAKE_PAGE_ACCESS_TOKENS (page_id=token,...) or PANCAKE_ACCESS_TOKEN so page tokens can be read from the page list.`,
      );
    }
    await this.freshPageList();
    const found = this.tokens.get(pageId);
    if (!found && !this.pageNames.has(pageId)) throw this.unknownPage("page_id", pageId, []);
    if (!found && this.pageNames.get(pageId)?.activated === false) {
      // Listed (pages read by name are offered among the account's), but Pancake serves no inbox for it.
      const active = [...this.pageNames].filter(([, p]) => p.activated).map(([id, p]) => `${id} (${p.name ?? "?"})`);
      throw new InputError(
        "page_id",
        `page ${pageId} (${this.pageNames.get(pageId)?.name ?? "?"}) is deactivated in Pancake: its inbox and statistics cannot be read`,
        `Activate it in Pancake's page settings, or use an activated page: ${active.join(", ") || "none"}.`,
      );
    }
    if (!found) {
      throw new ConfigError(
        `${op}: page ${pageId} is not an activated page of the account behind PANCAKE_ACCESS_TOKEN, or it has no page access token. Check the page id, or set its token in PANCAKE_PAGE_ACCESS_TOKENS.`,
      );
    }
    return found.token;
  }

  // ---- pages by name (every tool and resource that takes a page resolves it here) ----

  /**
   * The id of a page given by id or by name: "Mây Kids" finds "Mây Kids - Đồ trẻ em" (accents,
   * case and the rest of the name optional) when no other page matches as well. Known ids cost no
   * call. `field` names the argument in the error, which lists the pages.
   */
  async resolvePage(ref: string, field = "page_id"): Promise<string> {
    const text = ref.trim();
    if (this.tokens.has(text) || this.pageNames.has(text)) return text;
    if (!this.userToken) {
      // Without the page list only ids work; the call itself says which token is missing.
      if (PAGE_ID.test(text)) return text;
      throw new InputError(field, `${JSON.stringify(text.slice(0, 60))} is not a page id`, "Page names are read from the page list, which needs PANCAKE_ACCESS_TOKEN; pass the page id.");
    }
    await this.freshPageList();
    if (this.pageNames.has(text)) return text;
    const found = bestMatches([...this.pageNames], text, ([, page]) => page.name);
    if (found.length === 1) return found[0]![0];
    throw this.unknownPage(field, text, found.map(([id]) => id));
  }

  /** The account's activated pages (without the user token: the pages given a token). */
  async activePageIds(): Promise<string[]> {
    if (!this.userToken) return [...this.tokens.keys()];
    await this.freshPageList();
    return [...this.pageNames].filter(([, page]) => page.activated).map(([id]) => id);
  }

  /** Every page of the account, activated or not, with its name (without the user token: the pages given a token). */
  async accountPages(): Promise<{ id: string; name?: string | undefined; activated: boolean }[]> {
    if (!this.userToken) return [...this.tokens.keys()].map((id) => ({ id, activated: true }));
    await this.freshPageList();
    return [...this.pageNames].map(([id, page]) => ({ id, name: page.name, activated: page.activated }));
  }

  /** A page's name as of the last page list read. */
  pageName(pageId: string): string | undefined {
    return this.pageNames.get(pageId)?.name;
  }

  /** Reads the page list if it never was, was reset by a refused token, or is over a minute old (a page may be new). */
  private async freshPageList(): Promise<void> {
    // A read other calls may share (call-signal.ts): one caller cancelling fails no other.
    const cache = this.directory;
    this.apply(await joinedLoad(cache, DIRECTORY, this as MessagingClient, (start) => cache.get(DIRECTORY, start), (client) => client.fetchDirectory()));
  }

  private forgetPageList(): void {
    this.directory.delete(DIRECTORY);
    this.applied = undefined;
  }

  private unknownPage(field: string, ref: string, ambiguous: readonly string[]): InputError {
    const shown = (ids: readonly string[]) =>
      ids
        .slice(0, 20)
        .map((id) => {
          const name = this.pageNames.get(id)?.name;
          return name ? `${id} (${name})` : id;
        })
        .join(", ");
    const quoted = PAGE_ID.test(ref) ? ref : JSON.stringify(ref.slice(0, 60));
    if (ambiguous.length > 1) return new InputError(field, `${quoted} matches several pages: ${shown(ambiguous)}`, "Use the page id or more of the name.");
    const all = [...this.pageNames.keys()];
    const near = nearestName(all, ref, (id) => this.pageNames.get(id)?.name);
    const hint = near ? `Did you mean ${shown([near])}? ` : "";
    return new InputError(field, `${quoted} is not a page of this account`, `${hint}Use a page id or name: ${shown(all) || "the account has no pages"}.`);
  }

  private async fetchDirectory(): Promise<PageDirectory> {
    const body = await this.userCall({ op: "list pages", path: "/v1/pages", expect: (json) => listIn("pages")(json) || isPageGroups(json) });
    const categorized = field(body, "categorized") as Record<string, unknown> | undefined;
    const groups: Array<[unknown, boolean]> = categorized
      ? [
          [categorized.activated, true],
          [categorized.inactivated, false],
        ]
      : [[field(body, "pages"), true]];
    const directory: PageDirectory = { pages: [], activated: [], tokens: {} };
    for (const [items, activated] of groups) {
      for (const page of parseList(pageSchema, items)) {
        const id = String(page.id);
        if (activated) directory.activated.push(id);
        const token = page.settings?.page_access_token;
        if (activated && typeof token === "string" && token) setOwn(directory.tokens, id, token);
        directory.pages.push(withoutToken(page, activated));
      }
    }
    return directory;
  }

  /** Fills the name and token maps from a page list (once per copy read). */
  private apply(directory: PageDirectory): void {
    if (directory === this.applied) return;
    this.applied = directory;
    const activated = new Set(directory.activated);
    this.pageNames.clear();
    for (const page of directory.pages) this.pageNames.set(String(page.id), { name: sanitizeName(page.name), activated: activated.has(String(page.id)) });
    for (const [id, token] of Object.entries(directory.tokens)) this.remember(id, token, false);
  }

  /** Pinned tokens (configured, or generated by this process) are not replaced by the page list. */
  private remember(pageId: string, token: string, pinned: boolean): void {
    registerSecret(token);
    if (!pinned && this.tokens.get(pageId)?.pinned) return;
    this.tokens.set(pageId, { token, pinned });
  }
}
