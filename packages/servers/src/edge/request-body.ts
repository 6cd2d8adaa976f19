// The body of an inbound Request, as text, when the server that accepted it has already read it whole (a body of a
// declared length under the toolbox's cap, node-adapter.ts): the toolbox then reads no stream. A web Request has no
// field for it; elsewhere (a Request built by a platform) there is none, and the body is read from its stream.

export interface ReadBody {
  text: string;
  /** Its length in bytes, as a size cap counts it. */
  bytes: number;
}

const bodies = new WeakMap<Request, ReadBody>();

export function rememberReadBody(request: Request, body: ReadBody): void {
  bodies.set(request, body);
}

export function readBodyOf(request: Request): ReadBody | undefined {
  return bodies.get(request);
}
