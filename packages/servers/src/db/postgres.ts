// PostgreSQL for the toolboxes' storages, for several instances behind one URL. The driver is `postgres`
// (porsager/postgres: pure JS, no dependencies), an optional peer loaded only when a postgres:// URL is given.

export type Sql = import('postgres').Sql;

/** A small pool per storage: the database's connection limit is shared by every instance. `what` names the storage. */
export async function connectPostgres(url: string, what: string): Promise<Sql> {
  let postgres: typeof import('postgres');
  try {
    postgres = (await import('postgres')).default;
  } catch (error) {
    throw new Error(`Cannot reach PostgreSQL for ${what}: the \`postgres\` driver is not installed (npm install postgres). ${(error as Error).message}`, { cause: error });
  }
  return postgres(url, { max: 4, idle_timeout: 30, connect_timeout: 10, onnotice: () => {} });
}

/** The URL without its password, for error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return 'postgres://…';
  }
}
