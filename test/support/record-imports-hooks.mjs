import { appendFileSync } from 'node:fs';

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.BYHAND_IMPORT_LOG) appendFileSync(process.env.BYHAND_IMPORT_LOG, `${resolved.url}\n`);
  return resolved;
}
