// What a server asks while a call runs, put to the person at the page: sampling shown in full and answered by hand or
// sent to the host package's provider (within its caps; the click is the approval the terminal would ask for),
// elicitation as a form from its requestedSchema or a URL to consent to, and roots from the list the page edits.
// Each question waits for its answer from the page (POST /api/answer), or for the call to be given up.

import { HostError, type CreateMessageParams, type CreateMessageResult, type ElicitParams, type ElicitResult, type Host, type InputContext, type ListRootsResult, type Root } from '@byhand/client';
import type { EventLog } from './events.js';

export type Answer =
  | { by: 'hand'; text: string; model?: string }
  | { by: 'provider' }
  | { action: 'accept' | 'decline' | 'cancel'; content?: ElicitResult['content'] }
  | { decline: true };

/** Sends a sampling request to the provider, with its caps; undefined when no provider can be used. */
export type ProviderSample = (params: CreateMessageParams, ctx: InputContext) => Promise<CreateMessageResult>;

export class Questions {
  private readonly waiting = new Map<string, { resolve: (answer: Answer) => void; reject: (error: unknown) => void }>();
  private next = 0;
  roots: Root[];

  constructor(
    private readonly log: EventLog,
    private readonly provider: { name: string; sample: ProviderSample } | undefined,
    roots: Root[],
  ) {
    this.roots = roots;
  }

  /** The host the client is connected with: every answer comes from the page. */
  host(): Host {
    return {
      sample: (params, ctx) => this.sample(params, ctx),
      elicit: (params, ctx) => this.elicit(params, ctx),
      roots: async (ctx) => this.listRoots(ctx),
      elicitationModes: ['form', 'url'],
    };
  }

  /** The page's answer to question `id`; false when no such question waits (answered, or its call given up). */
  answer(id: string, answer: Answer): boolean {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return false;
    this.waiting.delete(id);
    waiting.resolve(answer);
    return true;
  }

  private ask(kind: string, ctx: InputContext, fields: Record<string, unknown>): Promise<Answer> {
    const id = `q${++this.next}`;
    return new Promise<Answer>((resolve, reject) => {
      const given = () => {
        this.waiting.delete(id);
        this.log.push('question-withdrawn', { id });
        reject(new HostError(`the question '${ctx.key}' was withdrawn: the call was given up`, 'nothing was sent back to the server'));
      };
      if (ctx.signal.aborted) return given();
      ctx.signal.addEventListener('abort', given, { once: true });
      this.waiting.set(id, {
        resolve: (answer) => {
          ctx.signal.removeEventListener('abort', given);
          this.log.push('question-answered', { id });
          resolve(answer);
        },
        reject,
      });
      this.log.push('question', { id, kind, key: ctx.key, method: ctx.method, name: ctx.name, round: ctx.round, era: ctx.era, again: ctx.again ?? 0, ...fields });
    });
  }

  private async sample(params: CreateMessageParams, ctx: InputContext): Promise<CreateMessageResult> {
    const answer = await this.ask('sampling', ctx, { params, provider: this.provider?.name ?? null });
    if ('by' in answer && answer.by === 'hand') {
      return { role: 'assistant', content: { type: 'text', text: answer.text }, model: answer.model?.trim() || 'a person at byhand inspect', stopReason: 'endTurn' };
    }
    if ('by' in answer && answer.by === 'provider') {
      if (this.provider === undefined) throw new HostError('no sampling provider is set up', 'answer by hand, or set one up (byhand doctor says how)');
      return this.provider.sample(params, ctx);
    }
    throw new HostError(`the person at the page declined the sampling request '${ctx.key}'`, 'nothing was sent to a model');
  }

  private async elicit(params: ElicitParams, ctx: InputContext): Promise<ElicitResult> {
    const answer = await this.ask(params.mode === 'url' ? 'url' : 'elicitation', ctx, { params });
    if ('action' in answer) return answer.action === 'accept' && params.mode !== 'url' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action };
    return { action: 'decline' };
  }

  private listRoots(ctx: InputContext): ListRootsResult {
    const result = { roots: this.roots.map((root) => ({ ...root })) };
    this.log.push('roots-listed', { key: ctx.key, method: ctx.method, name: ctx.name, roots: result.roots });
    return result;
  }
}
