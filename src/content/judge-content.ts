// Declared type, real kind and findings → the effect for one item (DESIGN §5, content rules of default.yaml).
import { combineEffects, type Effect, type Reason } from '../decision/decision.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { quoteValue } from '../decision/quote-value.ts';
import {
  EMPTY_KIND,
  UNKNOWN_KIND,
  allowedKindIds,
  familyOf,
  kindCovers,
  kindOfMime,
  pageAdmitted,
  readsAnyTextAsDocument,
  realKindAllowed,
} from './kinds.ts';
import type { ContentSniff } from './content-sniff.ts';
import type { ConsumerProfile } from './consumers/content-consumer.ts';

/** The content settings a judgement needs (policy `content`). */
export interface ContentRules {
  /** allowed mime types, mapped through the kinds table */
  allow: readonly string[];
  /** `allowedKindIds(allow)` computed ahead (the policy's `allowedKinds`); absent: computed from `allow` */
  allowedKinds?: ReadonlySet<string> | undefined;
  /** largest image by its header, pixels (width × height) */
  maxImagePixels?: number | undefined;
  /** text holding bidi controls or zero-width characters is partial */
  flagInvisibleText?: boolean | undefined;
  /** the consumers the policy protects (the policy's `consumers`); absent: the default profile */
  consumers?: ConsumerProfile | undefined;
}

/** One reason with the effect it asks for. */
export interface ContentFinding {
  effect: Exclude<Effect, 'allow'>;
  reason: Reason;
}

/** One item's content verdict: the combined effect and each finding (none for a silent allow). */
export interface ContentJudgement {
  effect: Effect;
  findings: ContentFinding[];
}

/** Judges sniffed bytes against their declared mime type (normalized, or null) and the content rules; deny beats partial beats allow. */
export function judgeContent(declaredMime: string | null, sniff: ContentSniff, rules: ContentRules): ContentJudgement {
  const found: ContentFinding[] = [];
  const allowed = rules.allowedKinds ?? allowedKindIds(rules.allow);
  const real = sniff.kind;

  if (sniff.active !== null)
    add(found, 'deny', 'content.executable', 'content.allow', `executable or active content: ${sniff.active}`);
  if (sniff.activeUnlessJson !== null && (declaredMime === null || kindOfMime(declaredMime)?.id !== 'json'))
    add(
      found,
      'deny',
      'content.executable',
      'content.allow',
      `executable or active content: json text read as text holds ${sniff.activeUnlessJson}`,
    );
  if (sniff.activeUnlessMarkdown !== null && (declaredMime === null || kindOfMime(declaredMime)?.id !== 'markdown'))
    add(
      found,
      'deny',
      'content.executable',
      'content.allow',
      `executable or active content: text read as html holds ${sniff.activeUnlessMarkdown}`,
    );

  if (sniff.remoteLoad !== null)
    add(
      found,
      'deny',
      'content.remote-load',
      'content.consumers',
      `a consumer loads more from elsewhere: ${sniff.remoteLoad}`,
    );

  if (declaredMime !== null) {
    const declared = kindOfMime(declaredMime);
    if (declared === undefined || !allowed.has(declared.id)) {
      add(
        found,
        'deny',
        'content.type-not-allowed',
        'content.allow',
        `declared type ${quoteValue(declaredMime)} is not allowed`,
      );
    }
    const declaredText = declared !== undefined && familyOf(declared.id) === 'text';
    if (declared === undefined) {
      // nothing to compare against: the declared type alone decides
    } else if (!allowed.has(declared.id) && (real === EMPTY_KIND || real === UNKNOWN_KIND)) {
      // a type that is not allowed is denied whatever its bytes; no second opinion on them
    } else if (real === EMPTY_KIND) {
      if (!declaredText)
        add(
          found,
          'partial',
          'content.uninterpretable',
          'content.allow',
          `empty body under declared ${quoteValue(declaredMime)}`,
        );
    } else if (real === UNKNOWN_KIND) {
      if (declaredText)
        add(
          found,
          'partial',
          'content.unsafe-text',
          'content.allow',
          `declared text ${quoteValue(declaredMime)} is neither valid utf-8 nor utf-16 with a byte order mark`,
        );
      else
        add(
          found,
          'partial',
          'content.uninterpretable',
          'content.allow',
          `unrecognized binary under declared ${quoteValue(declaredMime)}`,
        );
    } else if (!kindCovers(declared.id, real)) {
      if (sniff.textual && familyOf(real) === 'text') {
        // a page type takes any text as a page (the browser consumer reads it raw as HTML for script, and as XML when
        // an XML parser reads it); another reader finds no document of its type in it
        if (!readsAnyTextAsDocument(declaredMime))
          add(
            found,
            'partial',
            'content.uninterpretable',
            'content.allow',
            `plain text under declared ${quoteValue(declaredMime)}`,
          );
      } else {
        add(
          found,
          'deny',
          'content.mime-mismatch',
          'content.allow',
          `bytes are \`${real}\` but declared ${quoteValue(declaredMime)}`,
        );
        if (sniff.active === null && !realKindAllowed(allowed, real))
          add(found, 'deny', 'content.type-not-allowed', 'content.allow', `real type \`${real}\` is not allowed`);
      }
    } else if (sniff.active === null && !pageAdmitted(allowed, declared.id, real)) {
      // an XHTML page declared xml is a page, admitted only as one
      add(found, 'deny', 'content.type-not-allowed', 'content.allow', `real type \`${real}\` is not allowed`);
    }
  } else if (real === UNKNOWN_KIND) {
    add(found, 'deny', 'content.type-not-allowed', 'content.allow', 'unrecognized binary content is not allowed');
  } else if (sniff.active === null && !realKindAllowed(allowed, real === EMPTY_KIND ? 'text' : real)) {
    add(found, 'deny', 'content.type-not-allowed', 'content.allow', `real type \`${real}\` is not allowed`);
  }

  if (sniff.unsafe.length > 0) add(found, 'partial', 'content.unsafe-text', 'content.allow', sniff.unsafe.join('; '));
  if (rules.flagInvisibleText === true && sniff.invisible !== null)
    add(found, 'partial', 'content.unsafe-text', 'content.flagInvisibleText', sniff.invisible);
  if (sniff.uninterpretable !== null)
    add(found, 'partial', 'content.uninterpretable', 'content.allow', sniff.uninterpretable);
  if (sniff.tooComplex !== null) add(found, 'partial', 'content.too-complex', 'content.allow', sniff.tooComplex);
  if (
    rules.maxImagePixels !== undefined &&
    sniff.width !== null &&
    sniff.height !== null &&
    sniff.width * sniff.height > rules.maxImagePixels
  ) {
    add(
      found,
      'deny',
      'content.image-too-large',
      'content.maxImagePixels',
      `image is ${sniff.width}×${sniff.height} pixels, over the cap of ${rules.maxImagePixels} pixels`,
    );
  }
  return { effect: combineEffects(found.map((f) => f.effect)), findings: found };
}

function add(
  found: ContentFinding[],
  effect: ContentFinding['effect'],
  code: ReasonCode,
  rule: string,
  message: string,
): void {
  found.push({ effect, reason: { code, rule, stage: 'content', message } });
}
