import type { ClientCapabilities, ElicitParams, ElicitResult, Host, InputContext, ListRootsResult } from '@byhand/client';
import { answerFromFile, loadAnswers } from './answers-file.js';
import { fillForm } from './elicit-form.js';
import { askUrlConsent, urlLines } from './elicit-url.js';
import type { InterruptedError } from './errors.js';
import type { HostEventListener } from './events.js';
import { fieldsOf } from './form-fields.js';
import type { SamplingProvider } from './providers/provider.js';
import { selectProvider, type Env } from './providers/select-provider.js';
import { QuestionQueue } from './question-queue.js';
import { resolveRoots } from './roots.js';
import { createSampler, type Sampler } from './sampling-policy.js';
import { Secrets } from './secrets.js';
import { printable, Terminal, type InputStream, type OutputStream } from './terminal.js';

export const DEFAULT_MAX_TOKENS_CAP = 1024;
export const DEFAULT_MAX_MODEL_CALLS = 5;
/** About 25,000 tokens: room for a long document, not for a multi-megabyte one. */
export const DEFAULT_MAX_PROMPT_CHARS = 100_000;
/** Both modes, in every byhand host: a server may offer tools only to a client that declares them. */
const ELICITATION_MODES: ('form' | 'url')[] = ['form', 'url'];

export interface CreateHostOptions {
  /** Chooses the sampling provider (see selectProvider); defaults to process.env. */
  env?: Env;
  /** A provider to use instead of the one env chooses. */
  provider?: SamplingProvider;
  /** Declare sampling at all; default true. */
  sampling?: boolean;
  /** Declare sampling.tools, so servers may offer the model tools; default false. */
  samplingTools?: boolean;
  /** The server's maxTokens is lowered to this; default 1024. */
  maxTokensCap?: number;
  /** Model calls allowed for the life of this host (one tool call); default 5. */
  maxModelCalls?: number;
  /** The largest sampling request sent to a model, in characters (promptSize); default 100,000. */
  maxPromptChars?: number;
  /** --yes: make model calls without asking. */
  yes?: boolean;
  /** Where answers are typed; default process.stdin. */
  input?: InputStream;
  /** Where questions, forms and request descriptions go; default process.stderr, keeping stdout for results. */
  output?: OutputStream;
  /** Whether a person is there to approve model calls; default: the input is a TTY. */
  interactive?: boolean;
  /** Replaces the y/N question at the terminal (the description is written first, in the same turn of the queue). */
  approve?: (question: string, ctx: InputContext) => Promise<boolean>;
  /** Ctrl-C at a question: the caller should stop the whole command (byhand call exits 130). */
  onInterrupt?: (error: InterruptedError) => void;
  /** --answers FILE: forms are answered from this file (see answers-file.ts), never at the terminal. */
  answersFile?: string;
  /** --root DIR, repeatable; none means the working directory. */
  roots?: string[];
  /** Where relative --root paths start; default process.cwd(). */
  cwd?: string;
  onEvent?: HostEventListener;
}

export interface ByhandHost extends Host {
  sample?: Sampler;
  elicit: (params: ElicitParams, ctx: InputContext) => Promise<ElicitResult>;
  roots: (ctx: InputContext) => Promise<ListRootsResult>;
  elicitationModes: ('form' | 'url')[];
  /** What to declare for this host: exactly what its callbacks fulfil, sampling.tools included. */
  capabilities: ClientCapabilities;
  /** The sampling provider, when sampling is declared. */
  provider?: SamplingProvider;
  /** Text with every secret typed into a form so far replaced by ***: for traces, narration and errors. */
  mask: (text: string) => string;
}

/**
 * The host behind `byhand call`. Misconfiguration (an unreadable answers file, a --root that is no
 * directory, a BYHAND_PROVIDER without its key) throws here, before any request is sent.
 */
export function createHost(options: CreateHostOptions = {}): ByhandHost {
  const emit: HostEventListener = options.onEvent ?? (() => {});
  let terminal: Terminal | undefined;
  // process.stdin is touched only when something is asked, so a host that never asks leaves it alone.
  const term = () => (terminal ??= new Terminal(options.input ?? process.stdin, options.output ?? process.stderr));
  const questions = new QuestionQueue(options.onInterrupt);
  const secrets = new Secrets();
  const answers = options.answersFile === undefined ? undefined : loadAnswers(options.answersFile);
  const roots = resolveRoots(options.roots ?? [], options.cwd ?? process.cwd());
  const samplingTools = options.samplingTools ?? false;

  const host: ByhandHost = {
    elicitationModes: [...ELICITATION_MODES],
    capabilities: { elicitation: Object.fromEntries(ELICITATION_MODES.map((mode) => [mode, {}])), roots: {} },
    mask: (text) => secrets.mask(text),

    async elicit(params, ctx) {
      emit({ type: 'elicitation-request', ctx, params });
      const from = `${ctx.method} ${JSON.stringify(ctx.name)}`;
      const fields = params.mode === 'url' ? [] : fieldsOf(params.requestedSchema);
      let result: ElicitResult;
      if (answers) {
        result = answerFromFile(answers, params, ctx);
        if (params.mode === 'url') {
          term().write(`\nThe server asks you to open a URL (${printable(from)}):\n${urlLines(params.url)}  ${result.action} (from ${answers.path})\n`);
        }
      } else {
        const prompt = params.mode === 'url' ? askUrlConsent : fillForm;
        result = await questions.ask(() => prompt(params, term(), { from, key: ctx.key, again: ctx.again ?? 0, signal: ctx.signal }), ctx.signal);
      }
      secrets.remember(fields, result);
      emit({ type: 'elicitation-result', ctx, source: answers ? 'answers-file' : term().interactive ? 'terminal' : 'piped', result: Secrets.masked(fields, result) });
      return result;
    },

    async roots(ctx) {
      const result = { roots: roots.roots.map((root) => ({ ...root })) };
      // A legacy server may ask for roots while a form waits for its answer: the server has them at
      // once, the announcement waits for the form to close.
      questions.between(() => emit({ type: 'roots-listed', ctx, result }));
      return result;
    },
  };

  if (options.sampling ?? true) {
    const provider = options.provider ?? selectProvider(options.env ?? process.env);
    host.provider = provider;
    host.capabilities.sampling = samplingTools ? { tools: {} } : {};
    host.samplingTools = samplingTools;
    host.sample = createSampler({
      provider,
      policy: {
        maxTokensCap: options.maxTokensCap ?? DEFAULT_MAX_TOKENS_CAP,
        maxModelCalls: options.maxModelCalls ?? DEFAULT_MAX_MODEL_CALLS,
        maxPromptChars: options.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS,
        toolsDeclared: samplingTools,
        yes: options.yes ?? false,
        get interactive() {
          return options.interactive ?? term().interactive;
        },
      },
      show: (text) => term().write(`\n${text}`),
      confirm: (description, question, ctx) =>
        questions.ask(async () => {
          term().write(`\n${description}`);
          return options.approve
            ? options.approve(question, ctx)
            : /^\s*y(es)?\s*$/i.test((await term().ask(`${question} [y/N] `, ctx.signal)) ?? '');
        }, ctx.signal),
      emit,
    });
  }
  return host;
}

/**
 * The host behind the commands that only look (`list`, `checkpoint`): it declares what createHost declares, so a
 * server that offers tools by the client's capabilities shows the ones `call` reaches. It answers roots as call
 * does by default (the working directory) and refuses sampling and elicitation, which only a call would cause.
 */
export function createLookingHost(options: { cwd?: string } = {}): Host {
  const refuse = async (): Promise<never> => {
    throw new Error('byhand only looks here: it fulfils input requests in byhand call');
  };
  return {
    sample: refuse,
    elicit: refuse,
    roots: async () => resolveRoots([], options.cwd ?? process.cwd()),
    samplingTools: false,
    elicitationModes: [...ELICITATION_MODES],
  };
}

export { selectProvider, type Env } from './providers/select-provider.js';
export type { SamplingProvider, PreparedCall, TokenUsage } from './providers/provider.js';
export type { HostEvent, HostEventListener } from './events.js';
export type { Sampler, SamplingPolicy } from './sampling-policy.js';
export * from './errors.js';
export { QuestionQueue } from './question-queue.js';
export { printable, Terminal, type InputStream, type OutputStream } from './terminal.js';
