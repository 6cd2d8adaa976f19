// The protocol versions byhand speaks, newest first. The SDK 2.4.0 keeps its modern list internal
// (SUPPORTED_MODERN_PROTOCOL_VERSIONS in @modelcontextprotocol/server/dist/src-*.mjs) and exports
// LATEST_PROTOCOL_VERSION = '2025-11-25', the handshake era's newest.

export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** Modern revisions are named by date and compare as strings (spec basic/versioning.mdx). */
export function isModernVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}

/** The newest version in `offered` that we speak, modern first; undefined when none. */
export function pickVersion(offered: readonly unknown[]): string | undefined {
  const ours: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];
  return ours.find((v) => offered.includes(v));
}
