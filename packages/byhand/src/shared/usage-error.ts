// What a person typed wrong: exit code 2, as opposed to 1 for what went wrong on the way.

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Whether the usage lines help: true for malformed command lines, false for a wrong name or value. */
  constructor(message: string, readonly showUsage = false) {
    super(message);
  }
}
