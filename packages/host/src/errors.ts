// One class per way the host can say no, each with a message a person can act on.

import { redactText } from '@byhand/client';

export type SamplingRefusalReason =
  | 'tools-not-declared'
  | 'model-call-cap'
  | 'needs-yes'
  | 'declined'
  | 'invalid-request'
  | 'prompt-too-large';

/** The host would not make the model call the server asked for. */
export class SamplingRefusedError extends Error {
  override readonly name = 'SamplingRefusedError';
  constructor(readonly reason: SamplingRefusalReason, message: string) {
    super(message);
  }
}

/** The request holds content the chosen provider cannot take (audio for Anthropic, say). */
export class UnsupportedContentError extends Error {
  override readonly name = 'UnsupportedContentError';
}

/** A provider answered with an HTTP error or a body that is not a completion. */
/** A model provider failed. Its message names the provider's URL, which may carry a key: redacted by the one rule, since it is shown and, on a legacy session, sent to the server. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(readonly provider: string, message: string, readonly status?: number) {
    super(redactText(message));
  }
}

/** The --answers file is unreadable, or does not answer a form the server sent. */
export class AnswersFileError extends Error {
  override readonly name = 'AnswersFileError';
}

/** A --root directory does not exist or is not a directory. */
export class RootError extends Error {
  override readonly name = 'RootError';
}

/** The environment names a provider but not what it needs (its key or its URL). */
export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
}

/** A form field whose schema is none of the primitive types elicitation allows. */
export class FormSchemaError extends Error {
  override readonly name = 'FormSchemaError';
}

/** The person pressed Ctrl-C at a question: the whole command stops (exit 130), not just this answer. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor() {
    super('interrupted (Ctrl-C) at a question; nothing more is asked or sent');
  }
}

/** A form or URL consent needs an answer, but stdin is no terminal and has none left for it. */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
}
