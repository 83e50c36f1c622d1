import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { deny, obtainedRecord } from './record-fixtures.ts';

describe('recordViolations', () => {
  test('a consistent record has none', () => {
    expect(recordViolations(obtainedRecord())).toEqual([]);
  });

  test.each<{ name: string; change: (r: LinkRecord) => void; message: RegExp }>([
    {
      name: 'link deny with a read sent',
      change: (r) => {
        r.decisions.link = deny();
        r.verdict = 'link-only';
        r.stages.delivered = null;
      },
      message: /link denied but `requested`/,
    },
    {
      name: 'link deny with another verdict',
      change: (r) => {
        r.decisions.link = deny();
        r.stages.requested = null;
      },
      message: /link denied but verdict/,
    },
    {
      name: 'body-obtained under a read deny',
      change: (r) => {
        r.decisions.read = deny('content.executable');
      },
      message: /without a read `allow`/,
    },
    {
      name: 'partially-interpreted under a read allow',
      change: (r) => {
        r.verdict = 'partially-interpreted';
      },
      message: /without a read `partial`/,
    },
    {
      name: 'body-obtained without delivered',
      change: (r) => {
        r.stages.delivered = null;
      },
      message: /without `delivered`/,
    },
    {
      name: 'body-obtained without received',
      change: (r) => {
        r.stages.received = null;
      },
      message: /without `received`/,
    },
    {
      name: 'link-only with delivered',
      change: (r) => {
        r.verdict = 'link-only';
      },
      message: /`link-only` with `delivered`/,
    },
    {
      name: 'unverifiable with delivered',
      change: (r) => {
        r.verdict = 'unverifiable';
      },
      message: /`unverifiable` with `delivered`/,
    },
    {
      name: 'a deny without reasons',
      change: (r) => {
        r.decisions.read = { ...deny(), reasons: [] };
        r.verdict = 'link-only';
        r.stages.delivered = null;
      },
      message: /without reasons/,
    },
    {
      name: 'wouldDeny outside observe mode',
      change: (r) => {
        r.wouldDeny = false;
      },
      message: /outside observe mode/,
    },
    {
      name: 'observe mode hiding a deny',
      change: (r) => {
        r.mode = 'observe';
        r.wouldDeny = false;
        r.decisions.link = deny();
      },
      message: /`wouldDeny` does not match/,
    },
    {
      name: 'uri differing from the discovered one',
      change: (r) => {
        r.uri = 'guide://other';
      },
      message: /differs/,
    },
    {
      name: 'body-obtained with a cut body',
      change: (r) => {
        if (r.stages.received !== null) r.stages.received.truncated = true;
      },
      message: /cut at the cap/,
    },
    {
      name: 'a direct fetch without hops',
      change: (r) => {
        if (r.stages.requested !== null) r.stages.requested.transport = 'https-direct';
      },
      message: /without `hops`/,
    },
    {
      name: 'hops on a resources/read',
      change: (r) => {
        if (r.stages.requested !== null) r.stages.requested.hops = [];
      },
      message: /`hops` on transport `resources\/read`/,
    },
  ])('$name', ({ change, message }) => {
    const record = obtainedRecord();
    change(record);
    expect(recordViolations(record).join('\n')).toMatch(message);
  });
});
