// JSON with comments and trailing commas, as VS Code, Cursor and Claude Code write their configs, read by
// jsonc-parser (VS Code's own reader), so a file is taken exactly as the editor takes it. An error names the first
// place the reader stopped, as line:column, in words.

import { parse, ParseErrorCode, type ParseError } from 'jsonc-parser';

export class JsoncError extends Error {
  constructor(readonly why: string, readonly line: number, readonly column: number) {
    super(`${why} at ${line}:${column}`);
    this.name = 'JsoncError';
  }
}

const EXPECTED: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'not a JSON value',
  [ParseErrorCode.InvalidNumberFormat]: 'not a number',
  [ParseErrorCode.PropertyNameExpected]: 'expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'expected a value',
  [ParseErrorCode.ColonExpected]: 'expected ":"',
  [ParseErrorCode.CommaExpected]: 'expected ","',
  [ParseErrorCode.CloseBraceExpected]: 'expected "}"',
  [ParseErrorCode.CloseBracketExpected]: 'expected "]"',
  [ParseErrorCode.EndOfFileExpected]: 'expected the end of the file',
  [ParseErrorCode.InvalidCommentToken]: 'not a comment',
  [ParseErrorCode.UnexpectedEndOfComment]: 'a comment is not closed',
  [ParseErrorCode.UnexpectedEndOfString]: 'a string is not closed',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'a number is cut short',
  [ParseErrorCode.InvalidUnicode]: 'not a valid \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'not a valid escape',
  [ParseErrorCode.InvalidCharacter]: 'a control character inside a string',
};

export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return value;
  const { line, column } = lineColumn(text, first.offset);
  const why = EXPECTED[first.error] ?? 'not valid JSON';
  throw new JsoncError(first.offset >= text.trimEnd().length ? 'the file ends too early' : `${why}, found ${JSON.stringify(text.slice(first.offset, first.offset + Math.min(Math.max(1, first.length), 20)))}`, line, column);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
