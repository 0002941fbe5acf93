// `posdata completion SHELL`: the script that makes bash, zsh, fish or PowerShell complete
// posdata's commands, flags and their values (src/cli/completion.ts answers each Tab).
import { command } from '../cli/command.js';
import { SHELLS, type Shell } from '../cli/shells.js';
import { UsageError } from '../core/errors.js';
import { nameList, say } from '../core/redact.js';

export const completion = command({
  name: 'completion',
  args: [{ spec: '<shell>', description: 'bash, zsh, fish or powershell', offer: SHELLS }],
  flags: [],
  examples: [
    'source <(posdata completion bash)          # in ~/.bashrc',
    'source <(posdata completion zsh)           # in ~/.zshrc, after compinit',
    'posdata completion fish > ~/.config/fish/completions/posdata.fish',
  ],
  options: (_f, args): { shell: Shell } => {
    const shell = String(args[0]);
    if (!(SHELLS as readonly string[]).includes(shell))
      throw new UsageError(say`no completion for shell '${shell}'`, say`use one of ${nameList([...SHELLS])}`);
    return { shell: shell as Shell };
  },
  run: async ({ shell }, ctx) => {
    const { completionScript } = await import('../cli/completion.js');
    ctx.io.out.write(completionScript(shell));
  },
});
