// The one way in to the legacy era (legacy-era.ts): loaded on the first legacy server, and handed the
// client's pieces it uses (legacy-kit.ts says why they are handed over rather than imported).

import { readText } from './transport/bytes.js';
import { Deadline } from './deadline.js';
import { HostError, HttpStatusError, McpError, ProtocolError, RpcError, StreamClosedError, TimeoutError } from './errors.js';
import { exchange, message, resultOf } from './exchange.js';
import { fulfil } from './fulfil.js';
import { drain, HttpTransport, parseJson } from './transport/http/http.js';
import { redactUrl } from './redact.js';
import { sleep } from './sleep.js';
import { readSse } from './transport/event-stream.js';
import { asTask, TASKS_EXTENSION } from './tasks.js';
import { isRequest, isResponse } from './transport/transport.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from './versions.js';

let loaded: Promise<typeof import('./legacy-era.js')> | undefined;

/**
 * The legacy era's module, loaded once and handed the kit before anything in it runs. A load that failed (a
 * browser that could not fetch the chunk) is tried again on the next call rather than remembered.
 */
export function legacyEra(): Promise<typeof import('./legacy-era.js')> {
  loaded ??= import('./legacy-era.js').then(
    (era) => {
      era.useKit({
        Deadline, HostError, HttpStatusError, HttpTransport, McpError, ProtocolError, RpcError, StreamClosedError, TimeoutError,
        asTask, drain, exchange, fulfil, message, isRequest, isResponse, parseJson, readSse, readText, redactUrl, resultOf, sleep,
        TASKS_EXTENSION, LEGACY_VERSIONS, MODERN_VERSIONS,
      });
      return era;
    },
    (error: unknown) => {
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}
