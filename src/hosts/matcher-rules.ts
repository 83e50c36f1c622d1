/** True for a matcher every host reads as "every tool": none, `""` or `*`. */
export function matchesAll(matcher: string | undefined): matcher is undefined | '' | '*' {
  return matcher === undefined || matcher === '' || matcher === '*';
}

/**
 * A matcher as an exact-name list (`exact` decides whether it is one, `separator` splits it) or else an unanchored
 * regular expression searched in the tool name; a pattern the host cannot compile runs for nothing.
 */
export function listOrRegex(
  matcher: string,
  tool: string,
  exact: RegExp,
  separator: RegExp | string,
  trim = false,
): boolean {
  if (exact.test(matcher))
    return matcher
      .split(separator)
      .map((n) => (trim ? n.trim() : n))
      .includes(tool);
  return regexSearch(matcher, tool) ?? false;
}

/** `pattern` searched in `text` as a JavaScript regular expression; undefined when it does not compile. */
export function regexSearch(pattern: string, text: string): boolean | undefined {
  try {
    return new RegExp(pattern).test(text);
  } catch {
    return undefined;
  }
}
