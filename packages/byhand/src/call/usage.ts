// What a person typed wrong: exit code 2, as opposed to 1 for what went wrong on the way.

export type Verb = 'call' | 'read' | 'prompt';

export const USAGE = `usage: byhand call SERVER TOOL [key=value ...]
       byhand read SERVER URI
       byhand prompt SERVER NAME [key=value ...]

SERVER is a name from --config FILE, a bundled toolbox (kitchen, cookie-jar, probe, everything;
started in this process), or an http(s) URL.

  --config FILE   servers from an mcpServers / VS Code mcp.json file
  --yes           make model calls without asking
  --answers FILE  answer forms from this JSON file instead of the terminal
  --root DIR      a root to offer the server (repeatable; default: the working directory)
  --trace         print every wire message to stderr
  --json          print the final result as JSON on stdout
  --era E         auto (default), modern or legacy
  --timeout MS    per-request timeout (default 30000)

Values are read against the tool's inputSchema: numbers, true/false, a,b,c or [JSON] for arrays,
{JSON} for objects.`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Whether the usage text helps: true for malformed command lines, false for a wrong name or value. */
  constructor(message: string, readonly showUsage = false) {
    super(message);
  }
}
