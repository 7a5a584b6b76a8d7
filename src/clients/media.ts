import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import type { Dispatcher } from "undici";
import { InputError, NetworkError } from "./errors.js";
import { loadUndici } from "./http.js";

/**
 * Reads a file a tool was asked to send (an image or document URL), so it can be uploaded to the
 * page (upload_contents) when the page-token API, which takes only uploaded content ids, sends it.
 * The URL comes from a model that may have read it in a customer's message, so this is a guarded
 * fetch: https only, no redirects, public addresses only (checked on the address connected to, not
 * the name), at most MAX_BYTES, within the timeout. The configured upstream's own origin is the one
 * exception (its content server, or the sandbox on loopback).
 */
export const MAX_MEDIA_BYTES = 25 * 1024 * 1024;

export interface Media {
  bytes: Uint8Array;
  name: string;
  type: string;
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const family = isIP(address);
  return family === 0 || PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that fails for names resolving to a private address. */
function publicLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const list = addresses as LookupAddress[];
    const blocked = list.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      const refused = Object.assign(new Error(`${hostname} resolves to a private address`), { code: "EPRIVATE" });
      return callback(refused, []);
    }
    const all = (options as { all?: boolean }).all;
    if (all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
}

const pools: { guarded?: Dispatcher; trusted?: Dispatcher } = {};

/** One small pool per kind, made with the first download: the guarded one checks every address it connects to. */
async function poolFor(trusted: boolean): Promise<Dispatcher> {
  const { Agent } = await loadUndici();
  if (trusted) {
    pools.trusted ??= new Agent({ connections: 4 });
    return pools.trusted;
  }
  pools.guarded ??= new Agent({ connections: 4, connect: { lookup: publicLookup as never } });
  return pools.guarded;
}

export interface FetchMediaOptions {
  /** The upstream's origin: fetched without the public-address check (its own content, or the sandbox). */
  trustedOrigin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function fetchMedia(field: string, raw: string, options: FetchMediaOptions): Promise<Media> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError(field, "is not a URL");
  }
  const trusted = url.origin === options.trustedOrigin;
  if (url.protocol !== "https:" && !trusted) throw new InputError(field, "must be an https URL");
  if (!trusted && isIP(url.hostname.replace(/^\[|\]$/g, "")) && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ""))) {
    throw new InputError(field, "points to a private network address", "Give a public https URL of the file.");
  }
  const dispatcher = await poolFor(trusted);
  // The timeout covers the whole download, not each chunk: a server trickling a byte at a time
  // cannot hold the call; the caller's cancellation ends it too.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const failed = (error: unknown) => {
    const raw = (error as { code?: unknown }).code;
    const code = typeof raw === "string" ? raw : undefined;
    if (code === "EPRIVATE") return new InputError(field, "points to a private network address", "Give a public https URL of the file.");
    const timedOut = deadline.aborted || code?.includes("TIMEOUT");
    if (!timedOut && options.signal?.aborted) return new NetworkError(`download ${field}`, "network", "cancelled by the client");
    return new NetworkError(`download ${field}`, timedOut ? "timeout" : "network", timedOut ? `over ${options.timeoutMs} ms` : (code ?? "error"), "Check that the URL opens in a browser, then try again.");
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({ origin: url.origin, path: url.pathname + url.search, method: "GET", signal });
  } catch (error) {
    throw failed(error);
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    const moved = response.statusCode >= 300 && response.statusCode < 400;
    throw new InputError(field, `answered HTTP ${response.statusCode}${moved ? " (a redirect, not followed)" : ""}`, "Give the direct URL of the file.");
  }
  const length = Number(response.headers["content-length"]);
  if (length > MAX_MEDIA_BYTES) {
    await response.body.dump();
    throw new InputError(field, `the file is ${length} bytes, over the ${MAX_MEDIA_BYTES} bytes sent at most`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_MEDIA_BYTES) {
        response.body.destroy();
        throw new InputError(field, `the file is over the ${MAX_MEDIA_BYTES} bytes sent at most`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw error instanceof InputError ? error : failed(error);
  }
  const type = String(response.headers["content-type"] ?? "application/octet-stream").split(";")[0]!.trim();
  const name = fileName(url).replace(/[^\w.\- ]/g, "_").slice(0, 120) || "file";
  return { bytes: Buffer.concat(chunks), name, type };
}

/** The last path segment, decoded when it decodes (a stray `%` leaves it as it came). */
function fileName(url: URL): string {
  const last = url.pathname.split("/").pop() || "file";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A multipart/form-data body with one file field, and its content type. */
export function multipartFile(field: string, media: Media): { body: Uint8Array; contentType: string } {
  const boundary = `----pancake${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${media.name.replace(/"/g, "")}"\r\nContent-Type: ${media.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, media.bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
