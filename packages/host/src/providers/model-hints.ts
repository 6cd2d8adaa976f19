import type { CreateMessageParams } from '@byhand/client';

/**
 * MCP model hints are substrings, tried in order: the first hint that is part of an available
 * model's id wins (so "sonnet" picks the first Sonnet listed). No match falls back.
 */
export function pickModel(
  hints: NonNullable<CreateMessageParams['modelPreferences']>['hints'],
  available: readonly string[],
  fallback: string,
): string {
  for (const hint of hints ?? []) {
    const wanted = hint.name?.trim().toLowerCase();
    if (!wanted) continue;
    const match = available.find((id) => id.toLowerCase().includes(wanted));
    if (match) return match;
  }
  return fallback;
}

export function hintNames(params: CreateMessageParams): string[] {
  return (params.modelPreferences?.hints ?? []).flatMap((h) => (h.name?.trim() ? [h.name.trim()] : []));
}
