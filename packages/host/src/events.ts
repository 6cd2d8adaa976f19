import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  InputContext,
  ListRootsResult,
} from '@byhand/client';
import type { SamplingRefusalReason } from './errors.js';
import type { TokenUsage } from './providers/provider.js';

/**
 * One event per thing the server asked for and one per thing the host did about it, in order,
 * so a CLI can show each round as it happens.
 */
export type HostEvent =
  | { type: 'sampling-request'; ctx: InputContext; params: CreateMessageParams }
  | {
      type: 'sampling-result';
      ctx: InputContext;
      provider: string;
      model: string;
      /** What was sent: the server's maxTokens after the cap. */
      maxTokens: number;
      result: CreateMessageResult;
      /** The tokens the provider reports the call used, when it reports them. */
      usage?: TokenUsage;
    }
  | { type: 'sampling-refused'; ctx: InputContext; reason: SamplingRefusalReason; message: string }
  | { type: 'sampling-failed'; ctx: InputContext; error: Error }
  | { type: 'elicitation-request'; ctx: InputContext; params: ElicitParams }
  /**
   * The answer as it may be shown: secret fields are *** (the server gets the real values). Its source is
   * 'piped' when the input is not a terminal: read from a pipe or file, not typed.
   */
  | { type: 'elicitation-result'; ctx: InputContext; source: 'terminal' | 'piped' | 'answers-file'; result: ElicitResult }
  | { type: 'roots-listed'; ctx: InputContext; result: ListRootsResult };

export type HostEventListener = (event: HostEvent) => void;
