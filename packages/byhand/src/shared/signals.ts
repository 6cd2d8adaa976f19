// The signals that stop a command: Ctrl-C (SIGINT), a closed terminal (SIGHUP), a supervisor's stop
// (SIGTERM). The first aborts the command's work through one AbortSignal, so it ends the way any aborted
// request ends: cancelled on the wire (notifications/cancelled on a 2025 session and on stdio, the POST
// aborted on modern HTTP), then the server closed (a legacy session's DELETE; a stdio server's whole
// process group, so what npx started goes too). byhand then exits 128 + the signal's number, as a shell
// reports a process a signal ended. A second signal while that runs exits at once.

import { constants } from 'node:os';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** The abort reason: which signal, and the exit code it gives. */
export class Interrupted extends Error {
  readonly exitCode: number;
  constructor(readonly signalName: StopSignal) {
    super(`interrupted by ${signalName}`);
    this.exitCode = signalExitCode(signalName);
  }
}

function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

export interface SignalTrap {
  /** Aborted, with an Interrupted reason, at the first signal. */
  readonly signal: AbortSignal;
  /** 128 + the first signal's number once one arrived. */
  readonly exitCode: number | undefined;
  /** Gives the signals back their default behaviour. */
  dispose(): void;
}

type SignalProcess = Pick<NodeJS.Process, 'on' | 'removeListener'> & { exit(code: number): never | void };

export function trapSignals(proc: SignalProcess = process): SignalTrap {
  const controller = new AbortController();
  const handlers = STOP_SIGNALS.map((name) => {
    const handler = () => {
      if (controller.signal.aborted) return void proc.exit(signalExitCode(name));
      controller.abort(new Interrupted(name));
    };
    proc.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    get exitCode() {
      return controller.signal.aborted ? (controller.signal.reason as Interrupted).exitCode : undefined;
    },
    dispose: () => {
      for (const [name, handler] of handlers) proc.removeListener(name, handler);
    },
  };
}

/** The Interrupted reason of an aborted command signal, if that is why it aborted. */
export function interruptOf(signal: AbortSignal | undefined): Interrupted | undefined {
  return signal?.aborted && signal.reason instanceof Interrupted ? signal.reason : undefined;
}
