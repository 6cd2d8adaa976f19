// The client's pieces the legacy era uses, handed over by its loader (legacy-door.ts) instead of imported: a
// lazily loaded chunk that imported modules the entry also holds would make esbuild split them into a shared
// chunk, and every caller, modern only or not, would pay for the extra chunk (bench/bundle-size.js). Only type
// imports here and in the modules of the legacy chunk (legacy-era.ts and what it exports).

import type { readText } from './transport/bytes.js';
import type { Deadline } from './deadline.js';
import type { HostError, HttpStatusError, McpError, ProtocolError, RpcError, StreamClosedError, TimeoutError } from './errors.js';
import type { exchange, message, resultOf } from './exchange.js';
import type { fulfil } from './fulfil.js';
import type { drain, HttpTransport, parseJson } from './transport/http/http.js';
import type { redactUrl } from './redact.js';
import type { sleep } from './sleep.js';
import type { readSse } from './transport/event-stream.js';
import type { asTask } from './tasks.js';
import type { isRequest, isResponse } from './transport/transport.js';

export interface LegacyKit {
  Deadline: typeof Deadline;
  HostError: typeof HostError;
  HttpStatusError: typeof HttpStatusError;
  HttpTransport: typeof HttpTransport;
  McpError: typeof McpError;
  ProtocolError: typeof ProtocolError;
  RpcError: typeof RpcError;
  StreamClosedError: typeof StreamClosedError;
  TimeoutError: typeof TimeoutError;
  asTask: typeof asTask;
  drain: typeof drain;
  exchange: typeof exchange;
  message: typeof message;
  fulfil: typeof fulfil;
  isRequest: typeof isRequest;
  isResponse: typeof isResponse;
  parseJson: typeof parseJson;
  readSse: typeof readSse;
  readText: typeof readText;
  redactUrl: typeof redactUrl;
  resultOf: typeof resultOf;
  sleep: typeof sleep;
  /** The tasks extension's name (tasks.ts), and the versions byhand speaks (versions.ts). */
  TASKS_EXTENSION: string;
  LEGACY_VERSIONS: readonly string[];
  MODERN_VERSIONS: readonly string[];
}

/** Set once by the loader, before anything in the chunk runs. */
export let kit: LegacyKit;

export function useKit(given: LegacyKit): void {
  kit = given;
}
