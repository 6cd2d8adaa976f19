// The frontmatter reader (zero dependencies, a subset of YAML) against the `yaml` package, the field's full
// parser: on the YAML specification's examples (chapter 2, written as the mappings a frontmatter is) and on
// generated documents, each is read to the same value, or refused with a FrontmatterError that names the line.
// Never a different value: a skill whose frontmatter reads differently from what its author wrote would be verified
// against the wrong fields.

import assert from 'node:assert/strict';
import { parse, stringify, type ToStringOptions } from 'yaml';
import { describe, test } from './support/node-test.js';
import { FrontmatterError, parseFrontmatter } from '../packages/client/src/frontmatter.js';

/** Same value as `yaml`, or a refusal that says where; `refused` lists the cases that must be refused. */
function agrees(text: string): 'same' | 'refused' {
  const expected: unknown = parse(text);
  try {
    const got = parseFrontmatter(text);
    assert.deepEqual(got, expected, `read differently from yaml:\n${text}`);
    return 'same';
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    assert.match(error.message, /\S/, 'a refusal says why');
    return 'refused';
  }
}

// YAML 1.2.2, chapter 2 ("Language Overview"), each as a mapping; the comment names the example.
const SPEC: Record<string, [string, 'same' | 'refused']> = {
  '2.1 sequence of scalars': ['players:\n- Mark McGwire\n- Sammy Sosa\n- Ken Griffey\n', 'same'],
  '2.2 mapping scalars to scalars': ['hr:  65    # Home runs\navg: 0.278 # Batting average\nrbi: 147   # Runs Batted In\n', 'same'],
  '2.3 mapping scalars to sequences': ['american:\n- Boston Red Sox\n- Detroit Tigers\nnational:\n- New York Mets\n- Chicago Cubs\n', 'same'],
  '2.4 sequence of mappings': ['players:\n-\n  name: Mark McGwire\n  hr:   65\n', 'same'],
  '2.4 sequence of mappings, compact': ['players:\n- name: Mark McGwire\n  hr:   65\n', 'refused'],
  '2.5 sequence of sequences': ['rows:\n- [name        , hr, avg  ]\n- [Mark McGwire, 65, 0.278]\n', 'same'],
  '2.5 sequence of sequences, compact': ['rows:\n- - name\n  - hr\n', 'refused'],
  '2.6 mapping of mappings (flow)': ['Mark McGwire: {hr: 65, avg: 0.278}\n', 'refused'],
  '2.10 anchors and aliases': ['hr:\n- Mark McGwire\n- &SS Sammy Sosa\nrbi:\n- *SS\n', 'refused'],
  '2.13 literal block scalar': ['poem: |\n  \\//||\\/||\n  // ||  ||__\n', 'same'],
  '2.14 folded block scalar': ['text: >\n  Mark McGwire\'s\n  year was crippled\n  by a knee injury.\n', 'same'],
  '2.16 indentation determines scope': ['name: Mark McGwire\naccomplishment: >\n  Mark set a major league\n  home run record in 1998.\nstats: |\n  65 Home Runs\n  0.278 Batting Average\n', 'same'],
  '2.17 quoted scalars': ['unicode: "Sosa did fine.\\u263A"\ncontrol: "\\b1998\\t1999\\t2000\\n"\nsingle: \'"Howdy!" he cried.\'\nquoted: \' # Not a \'\'comment\'\'.\'\ntie-fighter: \'|\\-*-/|\'\n', 'same'],
  '2.18 multi-line flow scalars': ['plain:\n  This unquoted scalar\n  spans many lines.\n', 'refused'],
  '2.19 integers': ['canonical: 12345\ndecimal: +12345\noctal: 0o14\nhexadecimal: 0xC\n', 'same'],
  '2.20 floats': ['canonical: 1.23015e+3\nexponential: 12.3015e+02\nfixed: 1230.15\nnegative infinity: -.inf\n', 'refused'],
  '2.21 miscellaneous': ['null:\nbooleans: [ true, false ]\nstring: \'012345\'\n', 'refused'],
  '2.23 explicit tags': ['not-date: !!str 2002-04-28\n', 'refused'],
  '2.28 log file (document markers inside)': ['Time: 2001-11-23 15:01:42 -5\nUser: ed\n', 'same'],
};

describe('frontmatter reader against the yaml package', () => {
  for (const [name, [text, outcome]] of Object.entries(SPEC)) {
    test(`spec example ${name}: ${outcome === 'same' ? 'the same value' : 'a clear refusal'}`, () => {
      assert.equal(agrees(text), outcome);
    });
  }

  test('generated documents: the same value as yaml, or a refusal, never a different value', () => {
    // A seeded generator, so a failure names a case that can be run again.
    let seed = 20261204;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const SCALARS = ['plain', 'two words', 'yes', 'no', 'null', '~', 'true', 'False', '012', '0x1F', '0o17', '1e3', '-0.5', '.5', '+1', '3.',
      'a: b', 'a #b', '#x', '- dash', ' lead', 'trail ', 'quote\'s', 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', 'ünïcødé ✓', '', '@at', '`tick', '[x]', '{y}', '*star', '&amp', '!bang', '%pct', '|pipe', '>gt', '?q'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth < 2 && r < 0.15) return Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 3) }, () => [pick(['k', 'name', 'x-y', 'a b', 'on']) + Math.floor(random() * 9), value(depth + 1)]));
      if (r < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => value(9));
      if (r < 0.45) return Math.floor(random() * 2000) - 1000;
      if (r < 0.5) return Math.round(random() * 1e4) / 100;
      if (r < 0.55) return random() < 0.5;
      if (r < 0.58) return null;
      return pick(SCALARS);
    };
    const STYLES: ToStringOptions[] = [{}, { defaultStringType: 'QUOTE_DOUBLE' }, { defaultStringType: 'QUOTE_SINGLE' }, { defaultStringType: 'BLOCK_LITERAL' }, { defaultStringType: 'BLOCK_FOLDED' }, { flowCollectionPadding: false, collectionStyle: 'flow' }];
    const counts = { same: 0, refused: 0 };
    for (let i = 0; i < 600; i++) {
      const doc = Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, (_, k) => [`field${k}`, value(0)]));
      const style = STYLES[i % STYLES.length];
      const text = stringify(doc, style);
      counts[agrees(text)]++;
    }
    // Most generated documents are in the subset a frontmatter uses: a reader that refused everything would be safe and useless.
    assert.ok(counts.same > counts.refused, `read ${counts.same}, refused ${counts.refused}`);
  });
});
