import type { CreateMessageParams, CreateMessageResult, InputContext } from '@byhand/client';
import { describeSampling, promptSize } from './describe-sampling.js';
import { SamplingRefusedError, type SamplingRefusalReason } from './errors.js';
import type { HostEventListener } from './events.js';
import type { SamplingProvider } from './providers/provider.js';

export interface SamplingPolicy {
  /** The server's maxTokens is lowered to this, never raised. */
  maxTokensCap: number;
  /** Model calls allowed for the life of the host, which is one tool call in `byhand call`. */
  maxModelCalls: number;
  /** The largest request sent to a model, in characters of its messages, system prompt and tools. */
  maxPromptChars: number;
  /** Whether the host declared sampling.tools; without it a request with tools is refused. */
  toolsDeclared: boolean;
  /** --yes: make model calls without asking. */
  yes: boolean;
  /** Whether there is a person to ask (stdin is a TTY). */
  interactive: boolean;
}

export interface SamplerDeps {
  provider: SamplingProvider;
  policy: SamplingPolicy;
  /** Where the description of each request goes before anything is spent, when nobody is asked. */
  show: (text: string) => void;
  /** Shows the description and asks the person, as one question; true means go ahead. */
  confirm: (description: string, question: string, ctx: InputContext) => Promise<boolean>;
  emit: HostEventListener;
}

export type Sampler = (params: CreateMessageParams, ctx: InputContext) => Promise<CreateMessageResult>;

export function createSampler({ provider, policy, show, confirm, emit }: SamplerDeps): Sampler {
  // Slots taken from maxModelCalls: calls made, and calls being prepared or approved. A slot is
  // taken before the first await, so keys fulfilled concurrently (one MRTR round with many
  // sampling requests, or many callers of one host) cannot all pass the check before any counts.
  let reserved = 0;

  return async (params, ctx) => {
    emit({ type: 'sampling-request', ctx, params });
    const refuse = (reason: SamplingRefusalReason, message: string): never => {
      emit({ type: 'sampling-refused', ctx, reason, message });
      throw new SamplingRefusedError(reason, message);
    };
    try {
      ctx.signal.throwIfAborted();
      if (params.tools?.length && !policy.toolsDeclared) {
        refuse('tools-not-declared', 'the server sent tools with its sampling request, but this host did not declare sampling.tools');
      }
      if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) {
        refuse('invalid-request', `the server's maxTokens ${JSON.stringify(params.maxTokens)} is not a positive whole number`);
      }
      const size = promptSize(params);
      if (size > policy.maxPromptChars) {
        refuse(
          'prompt-too-large',
          `the server's sampling request is ${size.toLocaleString('en')} characters (about ${Math.ceil(size / 4).toLocaleString('en')} tokens), ` +
            `over this host's cap of ${policy.maxPromptChars.toLocaleString('en')}; nothing was sent to a model`,
        );
      }
      if (reserved >= policy.maxModelCalls) {
        refuse('model-call-cap', `the server asked for another model call, but this tool call may make at most ${policy.maxModelCalls} and has made or started them all`);
      }
      reserved += 1;
      const callNumber = reserved;
      let spent = false;
      try {
        const capped: CreateMessageParams = { ...params, maxTokens: Math.min(params.maxTokens, policy.maxTokensCap) };
        const call = await provider.prepare(capped, ctx.signal);
        const description = describeSampling(params, ctx, {
          provider,
          call,
          maxTokens: capped.maxTokens,
          maxTokensCap: policy.maxTokensCap,
          callNumber,
          maxModelCalls: policy.maxModelCalls,
          promptChars: size,
          maxPromptChars: policy.maxPromptChars,
        });

        if (provider.spends && !policy.yes) {
          if (!policy.interactive) {
            show(description);
            refuse('needs-yes', `this model call (${call.model} via ${provider.name}) needs your approval, but stdin is not a terminal; pass \`yes\` to allow model calls without asking`);
          }
          if (!(await confirm(description, `Send this to ${call.model} via ${provider.name}?`, ctx))) {
            refuse('declined', 'you declined the model call');
          }
        } else show(description);

        ctx.signal.throwIfAborted();
        // From here the call may be billed, failed or not: its slot stays taken.
        spent = true;
        const result = await call.run(ctx.signal);
        emit({ type: 'sampling-result', ctx, provider: provider.name, model: call.model, maxTokens: capped.maxTokens, result, ...(call.usage ? { usage: call.usage } : {}) });
        return result;
      } finally {
        if (!spent) reserved -= 1;
      }
    } catch (error) {
      if (!(error instanceof SamplingRefusedError)) emit({ type: 'sampling-failed', ctx, error: error as Error });
      throw error;
    }
  };
}
