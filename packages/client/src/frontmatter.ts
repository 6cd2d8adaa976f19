// The YAML frontmatter of a SKILL.md, read as the skills extension needs it (SEP-2640): the client compares it field by
// field with the frontmatter a skills/list or skills/get entry carries. A small reader for the subset skills use:
// block mappings (nested by indentation), block sequences of scalars, plain / 'single' / "double" quoted scalars with
// YAML 1.2 core-schema typing (null, booleans, integers, floats, else strings), one-line flow sequences of scalars,
// `{}`, `|` and `>` block scalars (with `-` / `+` chomping), and comments. Anything else (anchors, aliases, tags,
// multi-line plain scalars, compact sequences of mappings or of sequences (`- key: v`, `- - v`), flow mappings with
// content, indentation indicators, .inf and .nan) throws FrontmatterError rather than being read differently from a
// full YAML parser (test/frontmatter-corpus.test.ts holds it to the yaml package): an unreadable frontmatter
// cannot be verified, so the skill is refused.

import type { JsonObject } from './types.js';

/** What a frontmatter value can be once read: JSON's values. */
export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | { [key: string]: FrontmatterValue };

export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/** The opening `---` line, the YAML, and a closing `---` at the start of a line. */
const BLOCK = /^---[ \t]*\r?\n((?:[\s\S]*?\r?\n)?)---[ \t]*(?:\r?\n|$)/;

/** The YAML between the opening `---` line and the closing one, or undefined when the text does not start with one. */
export function frontmatterBlock(text: string): string | undefined {
  return BLOCK.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)?.[1];
}

interface Line {
  indent: number;
  text: string;
  /** 1-based, within the frontmatter, for errors. */
  number: number;
}

const fail = (line: Line | undefined, message: string): never => {
  throw new FrontmatterError(line ? `line ${line.number}: ${message}` : message);
};

/** Parses a frontmatter block into a JSON object. */
export function parseFrontmatter(yaml: string): JsonObject {
  const raw = yaml.split(/\r?\n/);
  const lines: Line[] = raw.map((text, i) => {
    if (/^\s*\t/.test(text)) fail({ indent: 0, text, number: i + 1 }, 'tabs may not indent YAML');
    const indent = text.length - text.trimStart().length;
    return { indent, text: text.slice(indent), number: i + 1 };
  });
  const reader = new Reader(lines);
  reader.skipBlank();
  if (reader.done()) return {};
  const first = reader.peek()!;
  if (first.indent !== 0) fail(first, 'the frontmatter must start at the left margin');
  const value = reader.block(0);
  reader.skipBlank();
  if (!reader.done()) fail(reader.peek(), 'unexpected indentation');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(first, 'the frontmatter must be a mapping of fields');
  return value as JsonObject;
}

const isBlank = (line: Line) => line.text === '' || line.text.startsWith('#');
const isItem = (line: Line) => line.text === '-' || line.text.startsWith('- ');

class Reader {
  private index = 0;
  constructor(private readonly lines: Line[]) {}

  done(): boolean {
    return this.index >= this.lines.length;
  }
  peek(): Line | undefined {
    return this.lines[this.index];
  }
  skipBlank(): void {
    while (!this.done() && isBlank(this.lines[this.index])) this.index++;
  }

  /** A mapping or sequence whose lines start at `indent`. */
  block(indent: number): FrontmatterValue {
    this.skipBlank();
    const first = this.peek()!;
    return isItem(first) ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): { [key: string]: FrontmatterValue } {
    const out: { [key: string]: FrontmatterValue } = {};
    for (this.skipBlank(); !this.done(); this.skipBlank()) {
      const line = this.peek()!;
      if (line.indent < indent || isItem(line)) break;
      if (line.indent > indent) fail(line, 'unexpected indentation (multi-line plain scalars are not supported)');
      this.index++;
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(out, key)) fail(line, `the field "${key}" appears twice`);
      out[key] = this.value(line, indent, rest);
    }
    return out;
  }

  private sequence(indent: number): FrontmatterValue[] {
    const out: FrontmatterValue[] = [];
    for (this.skipBlank(); !this.done(); this.skipBlank()) {
      const line = this.peek()!;
      if (line.indent !== indent || !isItem(line)) {
        if (line.indent > indent) fail(line, 'unexpected indentation');
        break;
      }
      this.index++;
      const rest = line.text.slice(1).trim();
      if (rest !== '' && keyPosition(rest) >= 0) fail(line, 'sequences of mappings are not supported');
      // `- - x` is a sequence inside a sequence, written compactly: not a string that starts with a dash.
      if (rest === '-' || rest.startsWith('- ') || rest.startsWith('? ')) fail(line, 'a sequence or key inside a sequence item is not supported');
      out.push(this.value(line, indent, rest));
    }
    return out;
  }

  /** What follows `key:` or `-`: a nested block on the next lines, a block scalar, or a scalar on this line. */
  private value(line: Line, indent: number, rest: string): FrontmatterValue {
    const text = stripComment(rest);
    if (text === '') {
      this.skipBlank();
      const next = this.peek();
      if (next && (next.indent > indent || (next.indent === indent && isItem(next) && !isItem(line)))) return this.block(next.indent);
      return null;
    }
    const header = /^([|>])([-+]?)$/.exec(text);
    if (header) return this.blockScalar(line, indent, header[1] === '>', header[2] as '' | '-' | '+');
    if (/^[|>]/.test(text)) fail(line, 'block scalar indentation indicators are not supported');
    return scalar(line, text);
  }

  private blockScalar(line: Line, indent: number, folded: boolean, chomp: '' | '-' | '+'): string {
    const body: Line[] = [];
    while (!this.done()) {
      const next = this.peek()!;
      if (next.text !== '' && next.indent <= indent) break;
      body.push(next);
      this.index++;
    }
    const content = body.find((l) => l.text !== '');
    if (content === undefined) return '';
    const at = content.indent;
    const rows = body.map((l) => {
      if (l.text !== '' && l.indent < at) fail(l, 'a block scalar line is less indented than its first line');
      return l.text === '' ? '' : ' '.repeat(l.indent - at) + l.text;
    });
    let trailing = 0;
    while (rows.length > 0 && rows.at(-1) === '') {
      rows.pop();
      trailing++;
    }
    let text: string;
    if (folded) {
      if (rows.some((r) => r.startsWith(' '))) fail(line, 'more-indented lines in a folded block scalar are not supported');
      text = '';
      for (const [i, row] of rows.entries()) {
        if (i === 0) text = row;
        else if (row === '') text += '\n';
        else text += rows[i - 1] === '' ? row : ` ${row}`;
      }
    } else {
      text = rows.join('\n');
    }
    if (chomp === '-') return text;
    if (chomp === '+') return `${text}\n${'\n'.repeat(trailing)}`;
    return `${text}\n`;
  }
}

/** Where the `:` that ends a key is (followed by a space or the end), or -1. */
function keyPosition(text: string): number {
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = closingQuote(text);
    return end >= 0 && /^:(\s|$)/.test(text.slice(end + 1)) ? end + 1 : -1;
  }
  const match = /:(\s|$)/.exec(text);
  return match ? match.index : -1;
}

function splitKey(line: Line): { key: string; rest: string } {
  const at = keyPosition(line.text);
  if (at < 0) fail(line, 'expected "field: value"');
  const rawKey = line.text.slice(0, at).trim();
  const key = scalar(line, rawKey);
  if (typeof key !== 'string' || rawKey === '') fail(line, 'field names must be strings');
  return { key: rawKey.startsWith('"') || rawKey.startsWith("'") ? (key as string) : rawKey, rest: line.text.slice(at + 1) };
}

function closingQuote(text: string): number {
  const quote = text[0];
  for (let i = 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

/** Drops a trailing ` # comment` outside quotes. */
function stripComment(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('#')) return '';
  if (trimmed.startsWith('"') || trimmed.startsWith("'")) {
    const end = closingQuote(trimmed);
    if (end < 0) return trimmed;
    const after = trimmed.slice(end + 1);
    const hash = after.search(/\s#/);
    return (trimmed.slice(0, end + 1) + (hash < 0 ? after : after.slice(0, hash))).trim();
  }
  const hash = trimmed.search(/\s#/);
  return (hash < 0 ? trimmed : trimmed.slice(0, hash)).trim();
}

function scalar(line: Line, text: string): FrontmatterValue {
  if (text.startsWith('"')) {
    const end = closingQuote(text);
    if (end < 0 || text.slice(end + 1).trim() !== '') fail(line, 'an unterminated or trailing-text "double-quoted" string');
    try {
      return JSON.parse(text.slice(0, end + 1)) as string;
    } catch {
      return fail(line, 'a "double-quoted" string with an escape this reader does not know');
    }
  }
  if (text.startsWith("'")) {
    const end = closingQuote(text);
    if (end < 0 || text.slice(end + 1).trim() !== '') fail(line, "an unterminated or trailing-text 'single-quoted' string");
    return text.slice(1, end).replace(/''/g, "'");
  }
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) fail(line, 'flow sequences must close on the same line');
    const inner = text.slice(1, -1).trim();
    if (inner === '') return [];
    return splitFlow(line, inner).map((item) => {
      if (/^[[{]/.test(item)) fail(line, 'nested flow collections are not supported');
      return scalar(line, item);
    });
  }
  if (text.startsWith('{')) {
    if (text.replace(/\s/g, '') !== '{}') fail(line, 'flow mappings are not supported');
    return {};
  }
  if (/^[&*!%@`]/.test(text)) fail(line, 'anchors, aliases, tags and reserved indicators are not supported');
  if (/:\s/.test(text)) fail(line, 'a plain scalar may not contain ": " (quote it)');
  return typed(line, text);
}

function splitFlow(line: Line, inner: string): string[] {
  const items: string[] = [];
  let rest = inner;
  while (rest !== '') {
    let end: number;
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const close = closingQuote(rest);
      if (close < 0) fail(line, 'an unterminated string in a flow sequence');
      end = rest.indexOf(',', close);
    } else {
      end = rest.indexOf(',');
    }
    items.push((end < 0 ? rest : rest.slice(0, end)).trim());
    rest = end < 0 ? '' : rest.slice(end + 1).trim();
  }
  return items;
}

/** YAML 1.2 core schema: null, booleans, integers and floats are typed; everything else is a string. */
function typed(line: Line, text: string): FrontmatterValue {
  if (/^(null|Null|NULL|~)$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(text)) fail(line, 'infinities and NaN have no JSON form');
  return text;
}
