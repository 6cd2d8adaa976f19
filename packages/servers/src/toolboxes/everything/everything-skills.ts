// The Everything toolbox's skills (SEP-2640, io.modelcontextprotocol/skills), for the conformance suite's
// sep-2640-skills-* scenarios (conformance-2026 dist/index.js). The suite discovers what to check from skills/list,
// so the fixtures only need what it looks for: a skill under an organisational prefix whose root directory has a
// subdirectory (sep-2640-skills-directory wants an `inode/directory` child of the first listed skill's root), more
// than one skill (so the one-per-page listing exercises the cursor), and frontmatter beyond name and description.

import type { McpServer } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { memorySkillSource, type SkillFilesByPath } from '../../edge/skills.js';

export const EVERYTHING_SKILLS: SkillFilesByPath = {
  'byhand/release-notes': {
    'SKILL.md': [
      '---',
      'name: release-notes',
      'description: Write release notes for a byhand release from its merged changes',
      'license: MIT',
      'metadata:',
      '  version: "1.0.0"',
      '  audience: maintainers',
      '---',
      '',
      '# Release notes',
      '',
      'Group the changes by package. Follow `references/STYLE.md`; start from `templates/entry.md`.',
      '',
    ].join('\n'),
    'references/STYLE.md': '# Style\n\nOne line a change, in the past tense, naming the package first.\n',
    'templates/entry.md': '- **@byhand/<package>**: <what changed>, <why it matters>\n',
  },
  'byhand/bug-triage': {
    'SKILL.md': [
      '---',
      'name: bug-triage',
      'description: Sort an incoming bug report into reproduce, needs-info or duplicate',
      '---',
      '',
      '# Bug triage',
      '',
      'Try the reproduction first; ask for the transcript (`byhand call --verbose`) when there is none.',
      '',
    ].join('\n'),
  },
};

/** One extension for the toolbox: the modern era builds a server per request, and each gets it attached. */
export function everythingSkills(): { attach(server: McpServer): void } {
  return new SkillsExtension({ source: memorySkillSource(EVERYTHING_SKILLS), cacheHint: { ttlMs: 300_000, cacheScope: 'public' } });
}
