import type { CreateMessageParams, CreateMessageResult, InputContext } from '@byhand/client';
import { describeSampling } from './describe-sampling.js';
import { SamplingRefusedError, type SamplingRefusalReason } from './errors.js';
import type { HostEventListener } from './events.js';
import type { SamplingProvider } from './providers/provider.js';

export interface SamplingPolicy {
  /** The server's maxTokens is lowered to this, never raised. */
  maxTokensCap: number;
  /** Model calls allowed for the life of the host, which is one tool call in `byhand call`. */
  maxModelCalls: number;
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
  /** Where the description of each request goes before anything is spent. */
  show: (text: string) => void;
  /** Asks the person; true means go ahead. */
  approve: (question: string, ctx: InputContext) => Promise<boolean>;
  emit: HostEventListener;
}

export type Sampler = (params: CreateMessageParams, ctx: InputContext) => Promise<CreateMessageResult>;

export function createSampler({ provider, policy, show, approve, emit }: SamplerDeps): Sampler {
  let calls = 0;

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
      if (calls >= policy.maxModelCalls) {
        refuse('model-call-cap', `the server asked for another model call, but this tool call may make at most ${policy.maxModelCalls} and has made them all`);
      }

      const capped: CreateMessageParams = { ...params, maxTokens: Math.min(params.maxTokens, policy.maxTokensCap) };
      const call = await provider.prepare(capped, ctx.signal);
      show(
        describeSampling(params, ctx, {
          provider,
          call,
          maxTokens: capped.maxTokens,
          maxTokensCap: policy.maxTokensCap,
          callNumber: calls + 1,
          maxModelCalls: policy.maxModelCalls,
        }),
      );

      if (provider.spends && !policy.yes) {
        if (!policy.interactive) {
          refuse('needs-yes', `this model call (${call.model} via ${provider.name}) needs your approval, but stdin is not a terminal; pass --yes to allow model calls without asking`);
        }
        if (!(await approve(`Send this to ${call.model} via ${provider.name}?`, ctx))) {
          refuse('declined', 'you declined the model call');
        }
      }

      calls += 1;
      const result = await call.run(ctx.signal);
      emit({ type: 'sampling-result', ctx, provider: provider.name, model: call.model, maxTokens: capped.maxTokens, result });
      return result;
    } catch (error) {
      if (!(error instanceof SamplingRefusedError)) emit({ type: 'sampling-failed', ctx, error: error as Error });
      throw error;
    }
  };
}
