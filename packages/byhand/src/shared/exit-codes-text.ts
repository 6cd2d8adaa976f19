// The exit codes of exit-codes.ts in words, for --help and the README: a module of its own, so help and completion
// do not load the client that exit-codes.ts maps errors from.

export const EXIT_CODES_TEXT = `exit codes: 0 ok, 1 failed (a protocol or server error), 2 usage, 3 auth (log in with byhand login),
4 unreachable (no server at the address, a command that cannot start, or a timeout), 5 the tool
reported an error (isError) or the task failed; 130 interrupted (Ctrl-C), 143 SIGTERM, 129 SIGHUP,
each after the request in flight is cancelled and the server closed.`;
