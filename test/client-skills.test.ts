// The client's skills extension (packages/client/src/skills.ts, SEP-2640): listing bounded and without file reads,
// loading refused on a size, digest or frontmatter mismatch and for unlisted files, the frontmatter reader's subset and
// its refusals; then byhand's client against the Everything toolbox's skills over loopback HTTP, in both eras.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from './support/node-test.js';
import { connect, McpError, ProtocolError, RpcError } from '../packages/client/src/index.js';
import { FrontmatterError, frontmatterBlock, parseFrontmatter } from '../packages/client/src/frontmatter.js';
import { getSkill, listSkills, loadSkill, SKILLS_EXTENSION, SkillVerificationError, type SkillEntry, type SkillsClient } from '../packages/client/src/skills.js';
import { startServer, type RunningServer } from '../packages/servers/src/edge/serve.js';

const digest = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
const SKILL_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1.0"\n---\n\nBody.\n';
const FORMS = 'Forms.\n';
const SKILL = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';

function entryFor(skillMd = SKILL_MD): SkillEntry {
  return {
    uri: SKILL,
    frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1.0' } },
    resources: [
      { uri: SKILL, digest: digest(skillMd), size: Buffer.byteLength(skillMd) },
      { uri: FORMS_URI, digest: digest(FORMS), size: Buffer.byteLength(FORMS) },
    ],
  };
}

/** A client over canned answers: `files` is what resources/read serves, `pages` what skills/list answers in turn. */
function fakeClient(options: { files?: Record<string, string>; pages?: (cursor: string | undefined) => Record<string, unknown>; declared?: boolean }) {
  const reads: string[] = [];
  const methods: string[] = [];
  const client: SkillsClient = {
    serverCapabilities: options.declared === false ? { resources: {} } : { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } },
    async request(method, params = {}) {
      methods.push(method);
      if (method === 'skills/list') return options.pages!(params.cursor as string | undefined);
      if (method === 'skills/get') return { skill: entryFor() };
      throw new Error(`unexpected ${method}`);
    },
    async readResource(uri) {
      reads.push(uri);
      const text = options.files?.[uri];
      if (text === undefined) throw new Error(`no ${uri}`);
      return { contents: [{ uri, mimeType: 'text/markdown', text }] };
    },
  };
  return { client, reads, methods };
}

describe('listing', () => {
  test('follows the cursor, reads no file, and stops a server that never stops paging', { timeout: 5_000 }, async () => {
    const paged = fakeClient({ pages: (cursor) => (cursor === undefined ? { skills: [entryFor()], nextCursor: 'p2' } : { skills: [{ ...entryFor(), uri: 'skill://b/SKILL.md' }] }) });
    const skills = await listSkills(paged.client);
    assert.deepEqual(skills.map((s) => s.uri), [SKILL, 'skill://b/SKILL.md']);
    assert.deepEqual(paged.reads, [], 'listing must not fetch any skill file');

    let n = 0;
    const endless = fakeClient({ pages: () => ({ skills: [], nextCursor: `c${n++}` }) });
    await assert.rejects(listSkills(endless.client, { maxPages: 5 }), (e: unknown) => e instanceof ProtocolError && /more than 5 pages/.test(e.message));
    assert.equal(endless.methods.length, 5);

    const circle = fakeClient({ pages: () => ({ skills: [], nextCursor: 'same' }) });
    await assert.rejects(listSkills(circle.client), /returned the cursor 'same' twice/);

    const many = fakeClient({ pages: () => ({ skills: [entryFor(), entryFor(), entryFor()] }) });
    await assert.rejects(listSkills(many.client, { maxSkills: 2 }), /more than 2 skills/);
  });

  test('refuses an entry that is not {uri, frontmatter, resources}, and a server that did not declare the extension', { timeout: 5_000 }, async () => {
    const noSize = fakeClient({ pages: () => ({ skills: [{ ...entryFor(), resources: [{ uri: SKILL, digest: digest(SKILL_MD) }] }] }) });
    await assert.rejects(listSkills(noSize.client), /invalid skill entry: .*\{uri, digest/);
    const noResources = fakeClient({ pages: () => ({ skills: [{ uri: SKILL, frontmatter: entryFor().frontmatter }] }) });
    await assert.rejects(listSkills(noResources.client), /neither an array nor "dynamic"/);
    const undeclared = fakeClient({ declared: false, pages: () => ({ skills: [] }) });
    await assert.rejects(listSkills(undeclared.client), /does not declare the io\.modelcontextprotocol\/skills extension/);
    assert.deepEqual(undeclared.methods, [], 'no skills/list to a server that did not declare the extension');
  });
});

describe('loading', () => {
  test('a skill that matches its entry loads; its files are read only when asked for, and verified', { timeout: 5_000 }, async () => {
    const { client, reads } = fakeClient({ files: { [SKILL]: SKILL_MD, [FORMS_URI]: FORMS } });
    const skill = await loadSkill(client, entryFor());
    assert.equal(skill.text, SKILL_MD);
    assert.deepEqual(reads, [SKILL]);
    assert.equal(await skill.readFile('references/FORMS.md'), FORMS);
    assert.deepEqual(reads, [SKILL, FORMS_URI]);
  });

  test('a digest mismatch is refused, in plain words', { timeout: 5_000 }, async () => {
    const tampered = SKILL_MD.replace('Body.', 'Evil.');
    const { client } = fakeClient({ files: { [SKILL]: tampered } });
    await assert.rejects(loadSkill(client, entryFor()), (e: unknown) => e instanceof SkillVerificationError && e instanceof McpError && /refused skill:\/\/pdf-processing\/SKILL\.md: its SHA-256 is sha256:[0-9a-f]{64}, and the skill's entry says/.test(e.message));
  });

  test('a size mismatch is refused before any digest is computed', { timeout: 5_000 }, async () => {
    const { client } = fakeClient({ files: { [SKILL]: `${SKILL_MD}more\n` } });
    await assert.rejects(loadSkill(client, entryFor()), (e: unknown) => e instanceof SkillVerificationError && /it is \d+ bytes, and the skill's entry says \d+/.test(e.message));
  });

  test('a SKILL.md whose frontmatter differs from the entry is refused, even with a matching digest', { timeout: 5_000 }, async () => {
    const changed = SKILL_MD.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials');
    const { client } = fakeClient({ files: { [SKILL]: changed } });
    await assert.rejects(loadSkill(client, entryFor(changed)), (e: unknown) => e instanceof SkillVerificationError && /frontmatter field "description" is "Exfiltrate credentials" in the file/.test(e.message));
    const nested = SKILL_MD.replace('version: "2.1.0"', 'version: "9.9.9"');
    await assert.rejects(loadSkill(fakeClient({ files: { [SKILL]: nested } }).client, entryFor(nested)), /field "metadata"/);
    const extra = SKILL_MD.replace('---\n\nBody', 'license: MIT\n---\n\nBody');
    await assert.rejects(loadSkill(fakeClient({ files: { [SKILL]: extra } }).client, entryFor(extra)), /field "license" is "MIT" in the file and absent in the skill's entry/);
  });

  test('an unlisted file, a supporting file that changed, and a "dynamic" or oversized skill are refused', { timeout: 5_000 }, async () => {
    const { client, reads } = fakeClient({ files: { [SKILL]: SKILL_MD, [FORMS_URI]: 'Changed.\n', 'skill://pdf-processing/secret.md': 'x' } });
    const skill = await loadSkill(client, entryFor());
    await assert.rejects(skill.readFile('secret.md'), /does not list this file/);
    assert.ok(!reads.includes('skill://pdf-processing/secret.md'), 'an unlisted file is not even fetched');
    await assert.rejects(skill.readFile(FORMS_URI), SkillVerificationError);
    await assert.rejects(loadSkill(client, { ...entryFor(), resources: 'dynamic' }), /publishes no digests/);
    const dynamic = await loadSkill(client, { ...entryFor(), resources: 'dynamic' }, { allowDynamic: true });
    assert.equal(dynamic.text, SKILL_MD);
    await assert.rejects(dynamic.readFile('skill://other/SKILL.md'), /outside the directory of skill:\/\/pdf-processing\/SKILL\.md/);
    const huge = { ...entryFor(), resources: [{ uri: SKILL, digest: digest(SKILL_MD), size: 17 * 1024 * 1024 }] };
    await assert.rejects(loadSkill(client, huge), /over the limits of 512 files and 16777216 bytes/);
  });
});

describe('the frontmatter reader', () => {
  test('reads the subset skills use, typed as YAML 1.2 core', { timeout: 5_000 }, () => {
    const text = ['---', 'name: x', 'description: "a: b" # comment', 'license: MIT', 'metadata:', '  version: "1.0"', '  n: 12', '  ok: true', '  none: ~', 'tags: [a, "b, c"]', 'tools:', '  - Read', '  - Bash', 'note: |', '  one', '  two', 'fold: >-', '  a', '  b', '---', 'body'].join('\n');
    assert.deepEqual(parseFrontmatter(frontmatterBlock(text)!), {
      name: 'x',
      description: 'a: b',
      license: 'MIT',
      metadata: { version: '1.0', n: 12, ok: true, none: null },
      tags: ['a', 'b, c'],
      tools: ['Read', 'Bash'],
      note: 'one\ntwo\n',
      fold: 'a b',
    });
    assert.equal(frontmatterBlock('# no frontmatter\n'), undefined);
  });

  test('refuses what it does not read, rather than read it differently', { timeout: 5_000 }, () => {
    for (const yaml of ['name: &anchor x', 'a: 1\na: 2', 'description: one\n  two', 'list:\n  - key: value', 'x: {a: 1}', 'x: .inf', '\tname: x']) {
      assert.throws(() => parseFrontmatter(yaml), FrontmatterError, yaml);
    }
  });
});

// The Everything toolbox serves two fixture skills (packages/servers/src/toolboxes/everything/everything-skills.ts), one per skills/list page.
let server: RunningServer;
before(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', toolboxes: ['everything'] });
});
after(() => server?.close());

for (const era of ['modern', 'legacy'] as const) {
  describe(`byhand's client against the Everything toolbox's skills, ${era} era`, () => {

    test('lists both skills, gets one, loads it and reads a supporting file, all verified', { timeout: 15_000 }, async () => {
      const client = await connect(server.urls.everything, { era });
      try {
        assert.equal(client.era, era);
        const skills = await listSkills(client);
        assert.deepEqual(skills.map((s) => s.uri).sort(), ['skill://byhand/bug-triage/SKILL.md', 'skill://byhand/release-notes/SKILL.md']);
        const entry = await getSkill(client, 'skill://byhand/release-notes/SKILL.md');
        assert.deepEqual(entry, skills.find((s) => s.uri === entry.uri));
        assert.deepEqual(entry.frontmatter.metadata, { version: '1.0.0', audience: 'maintainers' });
        const skill = await loadSkill(client, entry);
        assert.match(skill.text, /^---\nname: release-notes\n/);
        assert.match(await skill.readFile('references/STYLE.md'), /One line a change/);
        await assert.rejects(skill.readFile('references/MISSING.md'), /does not list this file/);
        await assert.rejects(getSkill(client, 'skill://byhand/no-such-skill/SKILL.md'), (e: unknown) => e instanceof RpcError && e.code === -32602);
      } finally {
        await client.close();
      }
    });
  });
}
