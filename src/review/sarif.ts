import type { Diagnostic } from '../errors.ts';
import { lintRuleCatalogue } from './lint-codes.ts';

/** The SARIF version `lint` writes, and the schema it declares. */
export const sarifVersion = '2.1.0';
/** `$schema` of every SARIF log `lint` writes. */
export const sarifSchemaUri = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Where the tool's documentation lives (SARIF `tool.driver.informationUri`). */
export const linkgateInformationUri = 'https://www.npmjs.com/package/linkgate';

/** Options of a SARIF log: the tool version and how a diagnostic's file becomes a repository-relative uri. */
export interface SarifOptions {
  readonly toolVersion: string;
  /** maps `Diagnostic.file` to a relative uri with `/` separators (default: as given) */
  readonly uriOf?: (file: string) => string;
}

/** A SARIF 2.1.0 log (only the members `lint` writes). */
export interface SarifLog {
  $schema: string;
  version: string;
  runs: SarifRun[];
}

interface SarifRun {
  tool: {
    driver: { name: string; version: string; semanticVersion: string; informationUri: string; rules: SarifRule[] };
  };
  columnKind: 'utf16CodeUnits';
  results: SarifResult[];
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: 'error' | 'warning' };
  help: { text: string };
  properties: { 'security-severity': string; tags: string[]; precision: 'very-high' };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning';
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } };
  }[];
}

/** `lint.rule-never-fires` → `LintRuleNeverFires`: the SARIF `name`, a readable identifier. */
function ruleName(id: string): string {
  return id
    .split(/[.-]/)
    .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
    .join('');
}

/** Encodes each path segment of a relative uri (spaces, `#`, `%`), keeping the `/` separators. */
export function relativeUri(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** Builds a SARIF 2.1.0 log for code-scanning upload: every rule `lint` knows, one result per finding, 1-based regions. */
export function toSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): SarifLog {
  const catalogue = lintRuleCatalogue();
  const known = new Set(catalogue.map((r) => r.id));
  // a code outside the catalogue still gets a rule, so ruleIndex always resolves
  for (const d of diagnostics) {
    if (!known.has(d.code)) {
      known.add(d.code);
      catalogue.push({
        id: d.code,
        description: d.code,
        level: d.severity,
        securitySeverity: '5.0',
        tags: ['security', 'linkgate'],
      });
    }
  }
  const index = new Map(catalogue.map((r, i) => [r.id, i]));
  const uriOf = options.uriOf ?? relativeUri;
  const rules: SarifRule[] = catalogue.map((r) => ({
    id: r.id,
    name: ruleName(r.id),
    shortDescription: { text: r.description },
    fullDescription: { text: r.description },
    defaultConfiguration: { level: r.level },
    help: { text: `${r.description} (linkgate lint code \`${r.id}\`)` },
    properties: { 'security-severity': r.securitySeverity, tags: [...r.tags], precision: 'very-high' },
  }));
  const results: SarifResult[] = diagnostics.map((d) => ({
    ruleId: d.code,
    ruleIndex: index.get(d.code) ?? 0,
    level: d.severity,
    message: { text: d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: uriOf(d.file) },
          region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.col) },
        },
      },
    ],
  }));
  return {
    $schema: sarifSchemaUri,
    version: sarifVersion,
    runs: [
      {
        tool: {
          driver: {
            name: 'linkgate',
            version: options.toolVersion,
            semanticVersion: options.toolVersion,
            informationUri: linkgateInformationUri,
            rules,
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
