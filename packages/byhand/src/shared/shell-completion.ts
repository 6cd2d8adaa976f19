// `byhand completion bash|zsh|fish`: a script that completes the commands and each command's
// flags, made from the same specs the parser reads, so it cannot drift from them.

import type { CommandSpec } from './kit.js';
import { UsageError } from './usage-error.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionScript(shell: string, specs: readonly CommandSpec[], commands: readonly string[]): string {
  const flagsOf = (spec: CommandSpec) => [...Object.keys(spec.flags), 'help'].map((name) => `--${name}`);
  switch (shell) {
    case 'bash':
    case 'zsh': {
      const cases = specs.map((spec) => `    ${spec.name}) opts="${flagsOf(spec).join(' ')}" ;;`).join('\n');
      const body = `_byhand() {
  local cur=\${COMP_WORDS[COMP_CWORD]} opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.join(' ')} --help --version" -- "$cur"))
    return
  fi
  case \${COMP_WORDS[1]} in
${cases}
  esac
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _byhand byhand
`;
      // zsh runs the bash function through bashcompinit.
      return shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${body}` : body;
    }
    case 'fish':
      return [
        'complete -c byhand -f',
        `complete -c byhand -n __fish_use_subcommand -a "${commands.join(' ')}"`,
        ...specs.flatMap((spec) =>
          Object.entries(spec.flags).map(([name, flag]) => `complete -c byhand -n "__fish_seen_subcommand_from ${spec.name}" -l ${name}${flag.type === 'string' ? ' -r' : ''} -d ${JSON.stringify(flag.help.slice(0, 60))}`),
        ),
        '',
      ].join('\n');
    default:
      throw new UsageError(`byhand completion: give ${SHELLS.join(', ')}${shell ? `, not ${JSON.stringify(shell)}` : ''}`, true);
  }
}
