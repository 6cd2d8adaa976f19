import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.BYHAND_IMPORT_LOG) appendFileSync(process.env.BYHAND_IMPORT_LOG, `${resolved.url}\n`);
  return resolved;
}
