import { randomUUID } from "node:crypto";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isJSONRPCRequest, type JSONRPCMessage } from "@modelcontextprotocol/server";

/**
 * 2025-era clients only (a 2026-07-28 client answers in its next call instead). Stateless HTTP
 * builds a server per request, so the client's answer to a server-to-client request
 * (a confirmation asked with elicitation on the tool call's SSE stream) arrives as a new POST that
 * no server is waiting on. Such requests go out under a process-unique id, and a POST holding only
 * answers to them is handed to the transport that asked (the tool call's, still open), under its
 * own id. It works when the answer reaches this process: one process, or a balancer that sends a
 * client's requests to one replica. Elsewhere the answer is unknown to the replica it reaches
 * (deliverAnswers returns false), the asking call times out and nothing is sent.
 */
const waiting = new Map<string, { tenant: string; deliver: (answer: JSONRPCMessage) => void }>();

/** Routes the answers to `transport`'s outgoing requests back to it (from its tenant only); returns the cleanup. */
export function routeAnswers(transport: NodeStreamableHTTPServerTransport, tenant: string): () => void {
  const asked = new Set<string>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!isJSONRPCRequest(message)) return send(message, options);
    const id = randomUUID();
    asked.add(id);
    waiting.set(id, { tenant, deliver: (answer) => transport.onmessage?.({ ...answer, id: message.id } as JSONRPCMessage) });
    return send({ ...message, id }, options);
  };
  return () => {
    for (const id of asked) waiting.delete(id);
  };
}

const isAnswer = (m: unknown): m is { id: string | number } =>
  typeof m === "object" && m !== null && !("method" in m) && "id" in m && ("result" in m || "error" in m);

/** Delivers a body made only of answers this process is waiting for from `tenant`; false for anything else. */
export function deliverAnswers(body: unknown, tenant: string): boolean {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every((m) => isAnswer(m) && waiting.get(String(m.id))?.tenant === tenant)) return false;
  for (const m of messages as { id: string | number }[]) {
    const { deliver } = waiting.get(String(m.id))!;
    waiting.delete(String(m.id));
    deliver(m as JSONRPCMessage);
  }
  return true;
}
