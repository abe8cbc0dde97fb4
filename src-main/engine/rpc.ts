import type { EventFrame, MethodName, ParamsOf, ResultOf } from '../../src-shared/protocol';

/** What a request handler knows about the connection that sent it. */
export interface ClientContext {
  clientId: number;
  /** Send an event to this client only. */
  emit(event: EventFrame): void;
  /** Aborted when the client disconnects, so long requests can stop. */
  signal: AbortSignal;
}

export type Handler<M extends MethodName> = (params: ParamsOf<M>, ctx: ClientContext) => Promise<ResultOf<M>> | ResultOf<M>;
export type Handlers = { [M in MethodName]?: Handler<M> };

/** Thrown by handlers for a failure the client should see with a specific code. */
export class RpcError extends Error {
  constructor(
    readonly code: 'not-found' | 'busy' | 'invalid-argument' | 'internal',
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}
