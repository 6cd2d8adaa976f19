import { ProviderConfigError } from '../errors.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOfflineProvider } from './offline.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import type { SamplingProvider } from './provider.js';

/** process.env, or any object shaped like it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The environment read here, all of it:
 *   BYHAND_PROVIDER         anthropic | openai | offline (optional; see below)
 *   ANTHROPIC_API_KEY       Anthropic's API, through @anthropic-ai/sdk
 *   ANTHROPIC_BASE_URL      another Anthropic-compatible endpoint (default https://api.anthropic.com)
 *   BYHAND_ANTHROPIC_MODEL  the model when no hint matches (default claude-haiku-5-5)
 *   BYHAND_OPENAI_BASE_URL  an OpenAI-compatible server: http://localhost:11434 (Ollama), http://127.0.0.1:8080 (llama-server)
 *   BYHAND_OPENAI_API_KEY   sent as a Bearer token when set
 *   BYHAND_OPENAI_MODEL     the model when no hint matches (default: the first the server lists)
 *
 * BYHAND_PROVIDER decides when set. Otherwise a configured
 * OpenAI-compatible URL wins over ANTHROPIC_API_KEY, because the URL is set for byhand alone while
 * the key is often just present in the shell; with neither, the offline provider answers.
 */
export function selectProvider(env: Env): SamplingProvider {
  const choice = env.BYHAND_PROVIDER?.trim().toLowerCase();
  switch (choice) {
    case 'offline':
      return createOfflineProvider();
    case 'anthropic':
      if (!env.ANTHROPIC_API_KEY) throw new ProviderConfigError('BYHAND_PROVIDER=anthropic needs ANTHROPIC_API_KEY');
      return anthropic(env, env.ANTHROPIC_API_KEY);
    case 'openai':
    case 'openai-compatible':
      if (!env.BYHAND_OPENAI_BASE_URL) {
        throw new ProviderConfigError(`BYHAND_PROVIDER=${choice} needs BYHAND_OPENAI_BASE_URL (e.g. http://localhost:11434 for Ollama)`);
      }
      return openai(env, env.BYHAND_OPENAI_BASE_URL);
    case undefined:
    case '':
      if (env.BYHAND_OPENAI_BASE_URL) return openai(env, env.BYHAND_OPENAI_BASE_URL);
      if (env.ANTHROPIC_API_KEY) return anthropic(env, env.ANTHROPIC_API_KEY);
      return createOfflineProvider();
    default:
      throw new ProviderConfigError(`BYHAND_PROVIDER="${env.BYHAND_PROVIDER}" is not one of anthropic, openai, offline`);
  }
}

function anthropic(env: Env, apiKey: string): SamplingProvider {
  return createAnthropicProvider({
    apiKey,
    ...(env.ANTHROPIC_BASE_URL && { baseURL: env.ANTHROPIC_BASE_URL }),
    ...(env.BYHAND_ANTHROPIC_MODEL && { defaultModel: env.BYHAND_ANTHROPIC_MODEL }),
  });
}

function openai(env: Env, baseURL: string): SamplingProvider {
  return createOpenAICompatibleProvider({
    baseURL,
    ...(env.BYHAND_OPENAI_API_KEY && { apiKey: env.BYHAND_OPENAI_API_KEY }),
    ...(env.BYHAND_OPENAI_MODEL && { model: env.BYHAND_OPENAI_MODEL }),
  });
}
