import type { z } from 'zod';
import type { PolicyDiagnosticCode } from './policy-diagnostic-codes.ts';

/** A schema finding before it is located: where (a path and which node of it) and what. */
export interface SchemaFinding {
  readonly path: readonly PropertyKey[];
  /** `value` the node at the path, `key` the key of its pair, `holder` the mapping that should hold it */
  readonly at: 'value' | 'key' | 'holder';
  readonly code: PolicyDiagnosticCode;
  readonly message: string;
}

/** How a message names the value found at a path (backticked source text, `a list`, …), and whether it is there at all. */
export interface ValueView {
  present(path: readonly PropertyKey[]): boolean;
  describe(path: readonly PropertyKey[]): string;
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: '`true` or `false`',
  array: 'a list',
  object: 'a mapping',
};

const quote = (v: unknown): string => `\`${String(v)}\``;

/** Turns one zod issue into lowercase one-line findings (one per unknown key); user values in backticks. */
export function describeSchemaIssue(issue: z.core.$ZodIssue, view: ValueView): SchemaFinding[] {
  const path = issue.path;
  const got = (): string => view.describe(path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: [...path, key],
        at: 'key',
        code: 'schema.unknown-key',
        message: `unknown key ${quote(key)}`,
      }));
    case 'invalid_type': {
      const last = path.at(-1);
      if (!view.present(path) && last !== undefined) {
        return [
          { path, at: 'holder', code: 'schema.missing-key', message: `missing required key ${quote(String(last))}` },
        ];
      }
      const received = (issue as { received?: unknown }).received;
      if (issue.expected === 'number' || issue.expected === 'int') {
        if (received === 'Infinity' || received === 'NaN') {
          return [{ path, at: 'value', code: 'schema.range', message: `expected a finite number, got ${got()}` }];
        }
        if (issue.expected === 'int' && received !== 'string' && received !== undefined) {
          return [{ path, at: 'value', code: 'schema.range', message: `expected a whole number, got ${got()}` }];
        }
      }
      const want = typeNames[issue.expected] ?? issue.expected;
      return [
        {
          path,
          at: 'value',
          code: issue.expected === 'int' ? 'schema.range' : 'schema.type',
          message: `expected ${want}, got ${got()}`,
        },
      ];
    }
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const side = issue.code === 'too_small' ? 'at least' : 'at most';
      // a list's or a string's size is counted in items or characters; a number's bound is the value itself
      const unit = issue.origin === 'array' ? 'item' : issue.origin === 'string' ? 'character' : undefined;
      if (unit !== undefined) {
        return [
          {
            path,
            at: 'value',
            code: 'schema.range',
            message: `expected ${side} ${String(bound)} ${unit}${Number(bound) === 1 ? '' : 's'}`,
          },
        ];
      }
      return [{ path, at: 'value', code: 'schema.range', message: `expected ${side} ${String(bound)}, got ${got()}` }];
    }
    case 'invalid_format': {
      // the schema's own format messages are lowercase (`expected a kebab-case rule id`); zod's defaults are not
      const what = /^[a-z]/.test(issue.message) ? issue.message : `expected a string of format ${quote(issue.format)}`;
      return [{ path, at: 'value', code: 'schema.format', message: `${what}, got ${got()}` }];
    }
    case 'invalid_value':
      return [
        {
          path,
          at: 'value',
          code: 'schema.enum',
          message: `expected one of ${issue.values.map(quote).join(', ')}, got ${got()}`,
        },
      ];
    default: {
      const text = issue.message.replace(/\s+/g, ' ').replace(/\.$/, '');
      return [
        { path, at: 'value', code: 'schema.invalid', message: `${text.charAt(0).toLowerCase()}${text.slice(1)}` },
      ];
    }
  }
}
