import type { CreateMessageParams, CreateMessageResult } from '@byhand/client';
import { blocksOf, isToolResult } from './content.js';
import type { SamplingProvider } from './provider.js';

export const OFFLINE_MODEL = 'byhand-offline (not a model)';

export const OFFLINE_NOTICE =
  'byhand offline provider: this is not a language model, and no model was called. ' +
  'Set ANTHROPIC_API_KEY, or BYHAND_OPENAI_BASE_URL for a local server, to get a real answer.';

// Words too common to say anything about the request.
const STOPWORDS = new Set(
  ('a an and are as at be but by can do for from has have how i if in into is it its me my no not of on or our ' +
    'please so than that the their them then there these they this to us was we what when where which who why ' +
    'will with would you your').split(' '),
);

/**
 * Works with no network and no weights: it picks the request's most telling sentences and terms,
 * which is enough to exercise a server's sampling path end to end and read plausibly.
 */
export function createOfflineProvider(): SamplingProvider {
  return {
    name: 'offline',
    endpoint: 'this machine, no network',
    spends: false,
    async prepare(params) {
      return {
        model: OFFLINE_MODEL,
        notes: [],
        run: async () => offlineAnswer(params),
      };
    },
  };
}

function offlineAnswer(params: CreateMessageParams): CreateMessageResult {
  const { text: body, stopReason } = fit(composeBody(requestText(params)), params);
  const text = body ? `${OFFLINE_NOTICE}\n\n${body}` : OFFLINE_NOTICE;
  return {
    role: 'assistant',
    content: params.tools?.length ? [{ type: 'text', text }] : { type: 'text', text },
    model: OFFLINE_MODEL,
    stopReason,
  };
}

function requestText(params: CreateMessageParams): string {
  const lastUser = [...params.messages].reverse().find((m) => m.role === 'user');
  if (!lastUser) return '';
  return blocksOf(lastUser)
    .flatMap((block) => {
      if (block.type === 'text') return [String(block.text)];
      if (isToolResult(block)) return block.content.flatMap((part) => (part.type === 'text' ? [String(part.text)] : []));
      return [];
    })
    .join('\n')
    .trim();
}

function composeBody(request: string): string {
  if (!request) return 'The request held no text to work from.';
  // "Summarise: <document>" is an instruction and its material; only the material is summarised.
  const split = /^([^\n:]{1,80}):\s+([\s\S]+)$/.exec(request);
  const text = split ? split[2] : request;
  const task = split ? `Asked to "${split[1]}". ` : '';
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const counts = new Map<string, number>();
  for (const w of words(text)) if (!STOPWORDS.has(w) && w.length > 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  // Ties keep first-seen order, so the answer never changes for the same request.
  const terms = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([w]) => w);

  if (sentences.length <= 1) {
    return [`You asked: "${request}"`, terms.length ? `It turns on: ${terms.join(', ')}.` : ''].filter(Boolean).join('\n');
  }
  const score = (s: string) => words(s).reduce((sum, w) => sum + (counts.get(w) ?? 0), 0);
  const chosen = sentences
    .map((s, i) => ({ s, i, score: score(s) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 3)
    .sort((a, b) => a.i - b.i);
  return [
    `${task}In short (${sentences.length} sentences, ${words(text).length} words):`,
    ...chosen.map(({ s }) => `- ${s}`),
    `Key terms: ${terms.join(', ')}.`,
  ].join('\n');
}

/** Honours stopSequences and maxTokens (one word counts as one token here), as a model would. */
function fit(text: string, params: CreateMessageParams): { text: string; stopReason: string } {
  let stopAt = -1;
  for (const seq of params.stopSequences ?? []) {
    const at = seq ? text.indexOf(seq) : -1;
    if (at >= 0 && (stopAt < 0 || at < stopAt)) stopAt = at;
  }
  let out = stopAt >= 0 ? text.slice(0, stopAt) : text;
  let stopReason = stopAt >= 0 ? 'stopSequence' : 'endTurn';
  const budget = Math.max(0, params.maxTokens - OFFLINE_NOTICE.split(/\s+/).length);
  const tokens = out.match(/\S+\s*/g) ?? [];
  if (tokens.length > budget) {
    out = tokens.slice(0, budget).join('').trimEnd();
    stopReason = 'maxTokens';
  }
  return { text: out, stopReason };
}
