import { raw, rpc, rpcMessage } from "./raw-http.js";

export interface HttpToolResult {
  isError: boolean;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
  data: any;
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

let ids = 0;

/** A tool call over stateless Streamable HTTP (one POST, as any replica behind a balancer gets it). */
export async function callOverHttp(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<HttpToolResult> {
  const res = await raw(url, { headers: { host: new URL(url).host, ...headers }, body: rpc(++ids, "tools/call", { name, arguments: args }) });
  if (res.status !== 200) return { isError: true, text: res.body, data: undefined, status: res.status, headers: res.headers };
  const message = rpcMessage(res.body);
  const result = message.result ?? { isError: true, content: [{ type: "text", text: JSON.stringify(message.error) }] };
  const text = (result.content ?? []).map((c: { text?: string }) => c.text ?? "").join("\n");
  return { isError: result.isError === true, text, data: result.structuredContent, status: res.status, headers: res.headers };
}
