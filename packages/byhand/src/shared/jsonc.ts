// JSON with comments and trailing commas, as VS Code, Cursor and Claude Code write their configs.
// Comments and trailing commas become spaces, so a JSON.parse error position is still the
// position in the file, reported as line:column.

export class JsoncError extends Error {
  constructor(readonly why: string, readonly line: number, readonly column: number) {
    super(`${why} at ${line}:${column}`);
    this.name = 'JsoncError';
  }
}

export function parseJsonc(text: string): unknown {
  const plain = stripJsonc(text);
  try {
    return JSON.parse(plain);
  } catch {
    // V8's messages do not always carry a position, so the place is found by reading the text again.
    const { offset, why } = locate(plain);
    const { line, column } = lineColumn(text, offset);
    throw new JsoncError(why, line, column);
  }
}

class Located extends Error {
  constructor(readonly offset: number, readonly why: string) {
    super(why);
  }
}

/** Where a text that JSON.parse refused goes wrong: a small recursive descent over the grammar. */
function locate(text: string): { offset: number; why: string } {
  let i = 0;
  const space = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const stop = (why: string): never => {
    throw new Located(i, i >= text.length ? 'the file ends too early' : `${why}, found ${JSON.stringify(text[i])}`);
  };
  const string = () => {
    if (text[i] !== '"') stop('expected a string in double quotes');
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] < ' ') stop('a control character inside a string');
    }
    if (i >= text.length) stop('an unterminated string');
    i++;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        string();
        space();
        if (text[i] !== ':') stop("expected ':' after a property name");
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else stop("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else stop("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    const word = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!word) stop('expected a value');
    i += word![0].length;
  };
  try {
    value();
    space();
    if (i < text.length) stop('unexpected text after the end');
    return { offset: i, why: 'not valid JSON' };
  } catch (error) {
    if (error instanceof Located) return error;
    throw error;
  }
}

function stripJsonc(text: string): string {
  const out = text.replace(/^\uFEFF/, ' ').split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  let lastComma = -1;
  while (i < out.length) {
    const c = out[i];
    if (c === '"') {
      lastComma = -1;
      for (i++; i < out.length && out[i] !== '"'; i++) if (out[i] === '\\') i++;
      i++;
    } else if (c === '/' && out[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? out.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && out[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? out.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === ',') {
      lastComma = i++;
    } else if (c === '}' || c === ']') {
      if (lastComma >= 0) out[lastComma] = ' ';
      lastComma = -1;
      i++;
    } else {
      if (!/\s/.test(c)) lastComma = -1;
      i++;
    }
  }
  return out.join('');
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
