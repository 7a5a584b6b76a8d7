/**
 * A JSON-RPC error answer. The SDK answers a thrown error with its numeric `code`, message and
 * `data` as they are, so this class keeps the SDK's own types behind server.ts.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** -32602 Invalid params: the caller's to fix. */
export const INVALID_PARAMS = -32602;
