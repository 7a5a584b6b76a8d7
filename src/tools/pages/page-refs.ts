import { z } from "zod";
import type { MessagingClient } from "../../clients/messaging.js";
import { jsonish, optionalPageIdInput, pageIdInput, pageRef } from "../inputs.js";

/**
 * Pages as users name them. Every tool parameter built from `pageIdInput` (one page) or
 * `pageIdsInput` (several, default all) takes ids or names; runTool resolves them through
 * resolvePageArgs before the handler runs, so handlers only ever see page ids.
 */

export const MAX_PAGES = 20;

/** Page ids or names: a list, JSON list text or a comma list. Omitted or empty: every activated page. */
export const pageIdsInput = z
  .preprocess(
    (v) => (typeof v === "string" && !v.trim().startsWith("[") ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
    jsonish(z.array(pageRef).max(MAX_PAGES)),
  )
  .default([])
  .describe("Page ids or names; omit: all pages");

/**
 * Page ids for what the user gave: each id or name resolved (errors name `field[i]` and list the
 * pages), repeats dropped; nothing given means the account's activated pages.
 */
export async function resolvePageIds(client: MessagingClient, refs: readonly string[] | undefined, field = "page_ids"): Promise<string[]> {
  if (!refs?.length) return client.activePageIds();
  const ids = await Promise.all(refs.map((ref, i) => client.resolvePage(ref, `${field}[${i}]`)));
  return [...new Set(ids)];
}

/** The tool input with every page parameter resolved to ids (see above); other input as it came. */
export async function resolvePageArgs(schema: z.ZodObject<z.ZodRawShape>, input: unknown, client: MessagingClient): Promise<unknown> {
  let out = input as Record<string, unknown>;
  for (const [key, field] of Object.entries(schema.shape)) {
    const value = out[key];
    if ((field === pageIdInput || field === optionalPageIdInput) && typeof value === "string") out = { ...out, [key]: await client.resolvePage(value, key) };
    else if (field === pageIdsInput) out = { ...out, [key]: await resolvePageIds(client, value as string[] | undefined, key) };
  }
  return out;
}
