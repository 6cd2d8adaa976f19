import type { CreateMessageParams, CreateMessageResult } from '@byhand/client';

/**
 * A model call made ready but not yet sent, so the host can show the user exactly which model
 * it will reach (and what it will leave out) before anything is spent.
 */
export interface PreparedCall {
  model: string;
  /** Parts of the request this provider will not send, each in a sentence. */
  notes: string[];
  run(signal: AbortSignal): Promise<CreateMessageResult>;
  /** The tokens the provider reports the call used, set once run has answered; absent when it reports none. */
  usage?: TokenUsage;
}

/** Tokens as the provider counted them (its own tokenizer), not the host's estimate before the call. */
export interface TokenUsage {
  input: number;
  output: number;
}

export interface SamplingProvider {
  /** 'anthropic', 'openai-compatible' or 'offline'. */
  readonly name: string;
  /** Where the requests go, for the user to see (a URL, or "nowhere"): redacted by the one rule (client redact.ts), since a base URL may carry a key. */
  readonly endpoint: string;
  /** Whether a call costs money or compute elsewhere; only such calls need the user's approval. */
  readonly spends: boolean;
  /** Maps the request and picks the model; throws UnsupportedContentError before any spending. */
  prepare(params: CreateMessageParams, signal: AbortSignal): Promise<PreparedCall>;
}
