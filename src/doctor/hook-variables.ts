import type { DoctorHost } from './doctor-report.ts';

// What hosts put in a hook command before or as their shell runs it, read in their code (docs/doctor.md, "variables
// in hook commands"):
// - Claude Code sets `CLAUDE_PROJECT_DIR` (the project folder) in the environment of every command hook it runs; the
//   shell expands it (`$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}`; not inside single quotes). Plugin hooks' own
//   `${CLAUDE_PLUGIN_ROOT}` is replaced as the plugin is read (claude-code-plugins.ts).
// - Gemini CLI (`hookRunner.ts`) replaces `$GEMINI_PROJECT_DIR` and `$CLAUDE_PROJECT_DIR` in the command text with the
//   project folder, shell-quoted, wherever they stand (inside single quotes too), and sets both in the environment
//   (the braced forms are then the shell's), where a handler's own `env` comes after them.
// - Codex runs the command with `$SHELL -lc` in the session's folder and sets no such variable (codex-rs/hooks
//   `command_runner.rs`); nor do the others doctor reads, as far as doctor knows.
// Any other variable is the host's environment's, which doctor does not see.

/** The variables a host's hook commands may name the project folder by, as it sets them. */
export const hookProjectVariables: Readonly<Partial<Record<DoctorHost, readonly string[]>>> = {
  'claude-code': ['CLAUDE_PROJECT_DIR'],
  'gemini-cli': ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
};

// hosts that replace `$NAME` (unbraced) in the command's text before the shell reads it
const replacedInText: ReadonlySet<DoctorHost> = new Set(['gemini-cli']);

/**
 * The words a hook command line runs, as its `host` has them (`project` its project folder; `own` the variables the
 * handler's own `env` sets), and for each word the first variable doctor cannot expand there (an environment doctor
 * does not see, a special parameter, a command substitution), if any: what that word names is not known.
 */
export function hookCommandWords(
  host: DoctorHost,
  line: string,
  project: string,
  own: Readonly<Record<string, string>> = {},
): { readonly words: readonly string[]; readonly unknown: readonly (string | undefined)[] } {
  const names = hookProjectVariables[host] ?? [];
  // a handler's own `env` setting one of them: which value wins is not known to doctor
  const vars = new Map(names.filter((n) => own[n] === undefined).map((n) => [n, project]));
  let text = line;
  if (replacedInText.has(host)) {
    const plain = plainPath(project);
    // gemini cli quotes the folder when it holds a character the shell reads: doctor leaves such a one unexpanded
    for (const name of names)
      text = text.replace(new RegExp(`\\$${name}(?![A-Za-z0-9_])`, 'g'), () => (plain ? project : `\${${name}:?}`));
  }
  return expandedWords(text, vars);
}

// a path the shell neither splits nor globs nor quotes-in-text changes
const plainPath = (value: string) => /^[A-Za-z0-9_./@%+=:,-]+$/.test(value);

/**
 * `line` split as a POSIX shell splits it (quotes, backslashes), with `$NAME` and `${NAME}` of `vars` expanded outside
 * single quotes; any other expansion is left as written and named in `unknown` for its word. An unquoted value that
 * the shell would split or glob is unknown too.
 */
export function expandedWords(
  line: string,
  vars: ReadonlyMap<string, string>,
): { words: string[]; unknown: (string | undefined)[] } {
  const words: string[] = [];
  const unknown: (string | undefined)[] = [];
  let word = '';
  let inWord = false;
  let missing: string | undefined;
  let quote: "'" | '"' | undefined;
  const end = () => {
    if (inWord) {
      words.push(word);
      unknown.push(missing);
    }
    word = '';
    inWord = false;
    missing = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === '$' || c === '`') {
      const found = expansion(line, i);
      if (found !== undefined) {
        const value = found.name === undefined ? undefined : vars.get(found.name);
        const usable = value !== undefined && (quote === '"' || plainPath(value));
        word += usable ? value : found.text;
        if (!usable) missing ??= found.text;
        inWord = true;
        i += found.text.length - 1;
        continue;
      }
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) end();
    else {
      word += c;
      inWord = true;
    }
  }
  end();
  return { words, unknown };
}

/**
 * The words a POSIX shell splits `line` into (single and double quotes, backslash escapes), expansions left as written.
 * Hosts run hook commands through `sh -c`; the command `linkgate hook --print-config` prints quotes only this way.
 */
export function shellWords(line: string): string[] {
  return expandedWords(line, new Map()).words;
}

// the expansion starting at `at` (`$NAME`, `${…}`, `$1`, `$?`, `$(…`, a backtick) and the variable it names, if plain
function expansion(line: string, at: number): { text: string; name?: string } | undefined {
  if (line[at] === '`') return { text: '`' };
  const rest = line.slice(at + 1);
  const named = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
  if (named !== undefined) return { text: `$${named}`, name: named };
  const braced = /^\{([^}]*)\}/.exec(rest);
  if (braced !== null) {
    const inner = braced[1] ?? '';
    const text = `$${braced[0]}`;
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner) ? { text, name: inner } : { text };
  }
  if (rest.startsWith('{')) return { text: `$${rest}` };
  if (/^[0-9@*#?$!-]/.test(rest) || rest.startsWith('(')) return { text: `$${rest[0]}` };
  return undefined;
}
