import { MAIN_PAGE_COUNT, registerMessaging, type MessagingState, seedMessaging } from "./messaging/index.js";
import { MAX_SCALE } from "./copies.js";
import { registerExamples, registerExamplesOnly } from "./examples.js";
import { registerMedia } from "./media.js";
import { makePeople } from "./people.js";
import { inboxLists } from "./messaging/lists.js";
import type { RouteContext } from "./messaging/guards.js";
import { registerPos, type PosState, seedPos } from "./pos/index.js";
import { posLists } from "./pos/lists.js";
import type { Quirk } from "./quirks.js";
import { scaleShop } from "./scale.js";
import { type RecordedRequest, SandboxServer } from "./server.js";
import { Simulation } from "./simulate.js";
import { SandboxWebhooks, type WebhookDelivery, type WebhookSettings } from "./webhooks.js";

export { MAX_SCALE } from "./copies.js";
export type { Quirk } from "./quirks.js";
export { type Fault, SandboxServer } from "./server.js";
export type { Simulation } from "./simulate.js";
export { POS_WEBHOOK_TYPES, type PosWebhookType, type WebhookDelivery, type WebhookSettings } from "./webhooks.js";

/** A request that reached one of the simulated upstreams, its path below that API's base URL. */
export interface UpstreamRequest extends Omit<RecordedRequest, "path"> {
  api: "messaging" | "pos";
  path: string;
}

/** Where the simulated upstreams live below the sandbox origin. */
export const MESSAGING_PREFIX = "/api";
export const POS_PREFIX = "/pos/api/v1";
/** Files a message can link to (the shop's own content server, as it were). */
export const MEDIA_PREFIX = "/media";

export interface SandboxOptions {
  /** The instant the data set is built around ("today"); defaults to now. */
  now?: Date;
  /** Calls per second per page before 429 (the live limit is 5). */
  ratePerSecond?: number;
  /** Extra small pages beyond the three main ones (fan-out benchmarks). */
  extraPages?: number;
  /**
   * An attacker's inbox thread and comment (prompt injection in the name and texts, invisible and
   * bidi characters, markup) for the tests that prove they stay inert. Off by default, so the demo
   * shop shows a seller's everyday inbox.
   */
  hostileRecords?: boolean;
  /** Replace the seeded credentials (tests use sentinel values to prove they never leak). */
  credentials?: { userToken?: string; posApiKey?: string; pageTokenPrefix?: string };
  /**
   * The demo shop this many times over (an integer from 1 to MAX_SCALE, default 1): every order,
   * buyer and main-page conversation copied scale - 1 times, the same shape (src/sandbox/scale.ts).
   * 1 is the data set every test knows.
   */
  scale?: number;
  /** Milliseconds every answer of the sandbox waits, counted from the request's arrival (default 0). */
  latencyMs?: number;
  /**
   * What answers: the simulated services (default), or every documented operation with the
   * vendor's own example and nothing else ("examples": examples.ts), for checks that take the
   * documents at their word.
   */
  upstream?: "simulated" | "examples";
  /** Lists that misbehave from the start (quirks.ts); Sandbox.misbehave adds more while serving. */
  quirks?: Quirk[];
}

/** Credentials the sandbox accepts; the demo hands them to the server. */
export interface SandboxCredentials {
  userToken: string;
  pageTokens: Record<string, string>;
  posApiKey: string;
  shopId: number;
}

export interface SandboxUrls {
  origin: string;
  messagingBaseUrl: string;
  posBaseUrl: string;
}

/** Both simulated upstreams on one loopback server, built from one deterministic data set. */
export class Sandbox {
  readonly server: SandboxServer;
  readonly messaging: MessagingState;
  readonly pos: PosState;
  readonly credentials: SandboxCredentials;
  readonly now: Date;
  /** Changes made elsewhere than through the API (a customer writes, staff act in the web app). */
  readonly simulate: Simulation;
  private readonly webhooks: SandboxWebhooks;
  private urls: SandboxUrls | undefined;

  constructor(options: SandboxOptions = {}) {
    const scale = options.scale ?? 1;
    if (!Number.isInteger(scale) || scale < 1 || scale > MAX_SCALE) throw new RangeError(`scale must be an integer from 1 to ${MAX_SCALE}`);
    const latencyMs = options.latencyMs ?? 0;
    if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new RangeError("latencyMs must be a number of milliseconds, 0 or more");
    this.now = options.now ?? new Date();
    this.server = new SandboxServer({ ratePerSecond: options.ratePerSecond ?? 5, latencyMs });
    for (const quirk of options.quirks ?? []) this.server.misbehave(quirk);
    const people = makePeople(320);
    this.messaging = seedMessaging({ now: this.now, people, extraPages: options.extraPages, hostile: options.hostileRecords });
    // The POS shop sells through the inbox's three main pages (benchmark branch pages follow them).
    const { pages, posts, ads, customers, conversations, begun } = this.messaging;
    const shopPages = pages.slice(0, MAIN_PAGE_COUNT).map(({ id, name, platform }) => ({ id, name, platform }));
    this.pos = seedPos({ now: this.now, people, inbox: { pages: shopPages, posts, ads, customers, conversations, begun } });
    scaleShop(this.messaging, this.pos, people, scale);
    // A big shop's lists sorted now, not by its first reads (seconds each at 1000x).
    if (scale > 1) {
      posLists(this.pos).warm();
      inboxLists(this.messaging).warm(this.messaging.pages.slice(0, MAIN_PAGE_COUNT).map((p) => p.id));
    }
    const override = options.credentials ?? {};
    if (override.userToken) this.messaging.userToken = override.userToken;
    if (override.posApiKey) this.pos.apiKey = override.posApiKey;
    if (override.pageTokenPrefix) {
      this.messaging.pages.forEach((page, i) => {
        page.settings.page_access_token = `${override.pageTokenPrefix}${i}`;
      });
    }
    this.credentials = {
      userToken: this.messaging.userToken,
      pageTokens: Object.fromEntries(this.messaging.pages.map((p) => [p.id, p.settings.page_access_token])),
      posApiKey: this.pos.apiKey,
      shopId: this.pos.shop.id,
    };
    const prefixes = { pos: POS_PREFIX, messaging: MESSAGING_PREFIX };
    let messaging: RouteContext;
    if (options.upstream === "examples") {
      const started = Date.now();
      messaging = { state: this.messaging, clock: () => this.now.getTime() + (Date.now() - started) };
      registerExamplesOnly(this.server.router, prefixes);
    } else {
      messaging = registerMessaging(this.server.router, this.messaging, MESSAGING_PREFIX);
      registerExamples(this.server.router, registerPos(this.server.router, this.pos, POS_PREFIX), messaging, prefixes);
    }
    registerMedia(this.server.router, MEDIA_PREFIX);
    this.webhooks = new SandboxWebhooks(this.messaging, messaging.clock);
    this.messaging.onChange = (change) => this.webhooks.inbox(change);
    this.pos.onChange = (change) => this.webhooks.pos(change);
    this.simulate = new Simulation(this.messaging, this.pos, messaging.clock);
  }

  /** From now on, the lists `quirk` meets misbehave so (quirks.ts: empty pages after the first, a range ignored, the first page again, a fixed total). */
  misbehave(quirk: Quirk): void {
    this.server.misbehave(quirk);
  }

  /** The lists behave again. */
  behave(): void {
    this.server.behave();
  }

  /**
   * Where the sandbox posts the webhooks of the changes made from now on (through the API or
   * simulate): the shop's POS webhook (its webhook_url, webhook_headers, webhook_types) and the
   * pages' messaging webhook. Replaces the previous settings; `{}` stops both.
   */
  setWebhooks(settings: WebhookSettings): void {
    this.webhooks.set(settings);
  }

  /** The latest webhook deliveries (a few thousand), oldest first, each with its answer once it came. */
  get webhookDeliveries(): readonly WebhookDelivery[] {
    return this.webhooks.deliveries;
  }

  /** Resolves once every webhook delivery under way has been answered or has failed. */
  webhooksSettled(): Promise<void> {
    return this.webhooks.settled();
  }

  /** The URL of a file the sandbox serves (a product photo, a price list), for sending tests and the demo. */
  mediaUrl(name: string): string {
    return `${this.started.origin}${MEDIA_PREFIX}/${encodeURIComponent(name)}`;
  }

  /**
   * Calls `listener` with every request to either upstream, as that API sees it (the contract test
   * checks them against the vendor's OpenAPI); returns the unsubscribe.
   */
  onUpstreamRequest(listener: (request: UpstreamRequest) => void): () => void {
    return this.server.onRequest((request) => {
      const routed = upstreamPath(request.path);
      if (routed) listener({ ...request, ...routed });
    });
  }

  async start(port = 0, host = "127.0.0.1"): Promise<SandboxUrls> {
    const origin = await this.server.listen(port, host);
    this.urls = { origin, messagingBaseUrl: origin + MESSAGING_PREFIX, posBaseUrl: origin + POS_PREFIX };
    return this.urls;
  }

  get started(): SandboxUrls {
    if (!this.urls) throw new Error("sandbox not started");
    return this.urls;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** Which upstream a sandbox path belongs to, and the path below that API's base URL. */
export function upstreamPath(path: string): Pick<UpstreamRequest, "api" | "path"> | undefined {
  if (path.startsWith(`${POS_PREFIX}/`)) return { api: "pos", path: path.slice(POS_PREFIX.length) };
  if (path.startsWith(`${MESSAGING_PREFIX}/`)) return { api: "messaging", path: path.slice(MESSAGING_PREFIX.length) };
  return undefined;
}
