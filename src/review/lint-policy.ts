import { isMap, LineCounter, parseDocument } from 'yaml';
import { consumerProfile, droppedDefaults } from '../content/consumers/content-consumer.ts';
import { kindOfMime } from '../content/kinds.ts';
import type { Diagnostic } from '../errors.ts';
import { isKnownNonCustomScheme, neverAllowedSchemes } from '../link/known-schemes.ts';
import { compileOriginAllowList } from '../link/origin-allow-list.ts';
import { checkPolicyText } from '../policy/check-policy.ts';
import { policySchema, type PolicyDocument } from '../policy/policy-schema.ts';
import { locatePath } from '../policy/yaml-locate.ts';
import { foldRule } from './fold-logic.ts';
import { lintCodes, type LintCode } from './lint-codes.ts';
import { farAboveFactor, minUsefulTimeoutMs, referenceLimits, reviewWarningDays } from './reference-limits.ts';
import { implies } from './rule-implication.ts';

/** Options of a lint run. */
export interface LintOptions {
  /** the day review expiry is judged against, `YYYY-MM-DD` (UTC); injectable so tests and CI replays are stable */
  readonly today: string;
}

/** A semantic finding before it is located: a path into the policy document and which node of it. */
export interface LintFinding {
  readonly path: readonly (string | number)[];
  readonly at: 'value' | 'key';
  readonly code: LintCode;
  readonly message: string;
}

// network schemes a link may name; every other known non-custom scheme reaches local files, runs script or smuggles a protocol
const networkSchemes = new Set(['http', 'https', 'ws', 'wss']);
const effectRank = { partial: 1, deny: 2 } as const;
const dayMs = 86_400_000;

/** Today's date in UTC as `YYYY-MM-DD`. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Lints policy text: the loader's diagnostics, then (when it loads) every semantic finding; sorted by line, column, code. */
export function lintPolicyText(text: string, file: string, options: LintOptions): Diagnostic[] {
  const check = checkPolicyText(text, file);
  const out: Diagnostic[] = [...check.diagnostics];
  // semantic lint needs a schema-valid document; loader findings beyond the schema (rule logic, duplicate ids) do not stop it
  const broken = check.diagnostics.some(
    (d) => d.severity === 'error' && (d.code.startsWith('yaml.') || d.code.startsWith('schema.')),
  );
  if (!broken) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
    const parsed =
      check.policy === undefined
        ? policySchema.safeParse(doc.toJS())
        : { success: true as const, data: check.policy.document };
    if (!parsed.success) return sortDiagnostics(out);
    const root = isMap(doc.contents) ? doc.contents : undefined;
    for (const f of lintPolicyDocument(parsed.data, options)) {
      const { line, col } = locatePath(root, lineCounter, f.path, f.at);
      out.push({
        file,
        line,
        col,
        severity: lintCodes[f.code].severity,
        code: f.code,
        message: f.message,
        path: f.path.map(String).join('.'),
      });
    }
  }
  return sortDiagnostics(out);
}

/** Sorts diagnostics by file, line, column, code and message (a stable order for every format). */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...list].sort(
    (a, b) =>
      cmp(a.file, b.file) || a.line - b.line || a.col - b.col || cmp(a.code, b.code) || cmp(a.message, b.message),
  );
}

/** Semantic checks of a valid policy document: rules, over-broad settings, caps and review dates. */
export function lintPolicyDocument(doc: Readonly<PolicyDocument>, options: LintOptions): LintFinding[] {
  return [
    ...ruleFindings(doc),
    ...linkFindings(doc),
    ...contentFindings(doc),
    ...limitFindings(doc),
    ...reviewFindings(doc, options.today),
  ];
}

function ruleFindings(doc: Readonly<PolicyDocument>): LintFinding[] {
  const out: LintFinding[] = [];
  const rules = doc.rules ?? [];
  rules.forEach((rule, i) => {
    const folded = foldRule(rule.when, rule.stage);
    for (const m of folded.mismatches)
      out.push({
        path: ['rules', i, 'when', ...m.path],
        at: 'key',
        code: 'lint.rule-type-mismatch',
        message: m.message,
      });
    if (folded.truth === false) {
      out.push({
        path: ['rules', i, 'when'],
        at: 'value',
        code: 'lint.rule-never-fires',
        message: `rule \`${rule.id}\` never fires: its condition is false for every input`,
      });
    } else if (folded.truth === true) {
      out.push({
        path: ['rules', i, 'when'],
        at: 'value',
        code: 'lint.rule-always-fires',
        message: `rule \`${rule.id}\` fires for every ${rule.stage} input: its condition is always true`,
      });
    }
    const earlier = rules
      .slice(0, i)
      .find(
        (e) =>
          e.stage === rule.stage &&
          e.id !== rule.id &&
          effectRank[e.effect] >= effectRank[rule.effect] &&
          implies(rule.when, e.when),
      );
    if (earlier !== undefined) {
      out.push({
        path: ['rules', i, 'id'],
        at: 'value',
        code: 'lint.rule-shadowed',
        message: `rule \`${rule.id}\` never changes a decision: earlier rule \`${earlier.id}\` fires whenever it does, with effect \`${earlier.effect}\``,
      });
    }
  });
  return out;
}

function linkFindings(doc: Readonly<PolicyDocument>): LintFinding[] {
  const out: LintFinding[] = [];
  const { links } = doc;
  links.schemes.forEach((scheme, i) => {
    // a never-allowed scheme is already the loader's error (`policy.never-allowed-scheme`)
    if (isKnownNonCustomScheme(scheme) && !networkSchemes.has(scheme) && !neverAllowedSchemes.has(scheme)) {
      out.push({
        path: ['links', 'schemes', i],
        at: 'value',
        code: 'lint.dangerous-scheme',
        message: `scheme \`${scheme}\` reaches local data, runs script or smuggles another protocol`,
      });
    }
  });
  (links.origins ?? []).forEach((entry, i) => {
    const finding = originFinding(entry);
    if (finding !== undefined) out.push({ path: ['links', 'origins', i], at: 'value', ...finding });
  });
  (links.allowNonPublicOrigins ?? []).forEach((entry, i) => {
    out.push({
      path: ['links', 'allowNonPublicOrigins', i],
      at: 'value',
      code: 'lint.non-public-exemption',
      message: `origin \`${entry}\` is exempt from the address rules`,
    });
  });
  if (!links.denyNonPublicAddresses) {
    out.push({
      path: ['links', 'denyNonPublicAddresses'],
      at: 'value',
      code: 'lint.non-public-allowed',
      message: 'links may reach loopback, private and cloud-metadata addresses',
    });
  }
  if (!links.requireSameServer) {
    out.push({
      path: ['links', 'requireSameServer'],
      at: 'value',
      code: 'lint.same-server-off',
      message: 'a link may be read from a server other than the one that returned it',
    });
  }
  if (doc.fetch?.enabled === true) {
    (doc.fetch.schemes ?? []).forEach((scheme, i) => {
      if (scheme === 'http')
        out.push({
          path: ['fetch', 'schemes', i],
          at: 'value',
          code: 'lint.fetch-cleartext',
          message: 'direct fetch may use cleartext `http`',
        });
    });
  }
  return out;
}

function originFinding(entry: string): Pick<LintFinding, 'code' | 'message'> | undefined {
  const wildcard = entry.indexOf('://*.');
  const starElsewhere = entry.replace('://*.', '://').includes('*');
  if (starElsewhere)
    return { code: 'lint.origin-too-broad', message: `origin \`${entry}\` uses \`*\` outside a leading \`*.\` label` };
  if (wildcard !== -1) {
    const suffix = entry
      .slice(wildcard + 5)
      .replace(/:\d+$/, '')
      .replace(/\.$/, '');
    if (!suffix.includes('.'))
      return { code: 'lint.origin-too-broad', message: `origin \`${entry}\` admits every host under \`.${suffix}\`` };
  }
  const list = compileOriginAllowList([entry]);
  if (list.exact.size === 0 && list.wildcards.length === 0) {
    return {
      code: 'lint.origin-invalid',
      message: `origin \`${entry}\` is not \`scheme://host[:port]\` and matches nothing`,
    };
  }
  return undefined;
}

function contentFindings(doc: Readonly<PolicyDocument>): LintFinding[] {
  const out: LintFinding[] = [];
  doc.content.allow.forEach((mime, i) => {
    const kind = kindOfMime(mime);
    if (kind === undefined) return; // the loader reports unknown types
    const why =
      kind.family === 'executable'
        ? 'is executable or active content'
        : kind.family === 'binary'
          ? 'is opaque binary that nobody vouches for'
          : kind.family === 'archive'
            ? 'is an archive whose members are never inspected'
            : kind.id === 'html' || kind.id === 'xml'
              ? 'is markup that may carry script'
              : undefined;
    if (why !== undefined)
      out.push({
        path: ['content', 'allow', i],
        at: 'value',
        code: 'lint.content-type-risky',
        message: `content type \`${mime}\` ${why}`,
      });
  });
  // a profile written out is easy to write short: what it leaves out of the default is no longer protected
  const { consumers: named, excludeConsumers: excluded } = doc.content;
  const dropped =
    named === undefined && excluded === undefined ? [] : droppedDefaults(consumerProfile(named, excluded));
  if (dropped.length > 0)
    out.push({
      path: ['content', named === undefined ? 'excludeConsumers' : 'consumers'],
      at: 'key',
      code: 'lint.consumers-dropped',
      message: `the profile (\`content.consumers\`, \`content.excludeConsumers\`) leaves out ${dropped.map((id) => `\`${id}\``).join(', ')} of the default profile: bodies only ${dropped.length === 1 ? 'it reads are' : 'they read are'} no longer judged for ${dropped.length === 1 ? 'it' : 'them'} (docs/policy-reference.md, "Consumers the content rules protect")`,
    });
  return out;
}

function numberAt(doc: Readonly<PolicyDocument>, dotted: string): number | undefined {
  let value: unknown = doc;
  for (const segment of dotted.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return typeof value === 'number' ? value : undefined;
}

function limitFindings(doc: Readonly<PolicyDocument>): LintFinding[] {
  const out: LintFinding[] = [];
  for (const [dotted, ref] of Object.entries(referenceLimits)) {
    const value = numberAt(doc, dotted);
    if (value !== undefined && value > ref.value * farAboveFactor) {
      out.push({
        path: dotted.split('.'),
        at: 'value',
        code: 'lint.cap-far-above-default',
        message: `\`${dotted}\` ${value} ${ref.unit} is over ${farAboveFactor}× the default ${ref.value}`,
      });
    }
  }
  for (const dotted of ['read.readTimeoutMs', 'fetch.connectTimeoutMs']) {
    const value = numberAt(doc, dotted);
    if (value !== undefined && value < minUsefulTimeoutMs) {
      out.push({
        path: dotted.split('.'),
        at: 'value',
        code: 'lint.limit-out-of-range',
        message: `\`${dotted}\` ${value} ms is under ${minUsefulTimeoutMs} ms: reads would time out`,
      });
    }
  }
  const pairs: [string, string, string][] = [
    ['read.maxItemBytes', 'read.maxBytes', 'no item can use more than the whole read'],
    ['links.maxDeclaredBytes', 'read.maxBytes', 'a link that size passes the link check and then fails the read'],
    ['fetch.connectTimeoutMs', 'read.readTimeoutMs', 'the read deadline ends first'],
  ];
  for (const [small, big, why] of pairs) {
    const a = numberAt(doc, small);
    const b = numberAt(doc, big);
    if (a !== undefined && b !== undefined && a > b) {
      out.push({
        path: small.split('.'),
        at: 'value',
        code: 'lint.limit-inconsistent',
        message: `\`${small}\` ${a} is over \`${big}\` ${b}: ${why}`,
      });
    }
  }
  return out;
}

function reviewFindings(doc: Readonly<PolicyDocument>, today: string): LintFinding[] {
  const expires = Date.parse(`${doc.review.expires}T00:00:00Z`);
  const now = Date.parse(`${today}T00:00:00Z`);
  if (Number.isNaN(expires) || Number.isNaN(now)) return [];
  const days = Math.round((expires - now) / dayMs);
  if (days < 0) {
    return [
      {
        path: ['review', 'expires'],
        at: 'value',
        code: 'lint.review-expired',
        message: `the review expired on \`${doc.review.expires}\`, ${-days} days ago; renew it`,
      },
    ];
  }
  if (days <= reviewWarningDays) {
    return [
      {
        path: ['review', 'expires'],
        at: 'value',
        code: 'lint.review-expiring',
        message: `the review expires on \`${doc.review.expires}\`, in ${days} days`,
      },
    ];
  }
  return [];
}
