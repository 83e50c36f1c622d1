// The binary half of the consumer registry (issue 41 item 1): binary bodies are judged by the consumers' own binary
// readings through `judgeBinaryForProfile`, each only while its consumer is in the profile, in the order a format
// names them, the first finding standing.
import { describe, expect, test } from 'vitest';
import { blankSniff } from '../../../src/content/content-sniff.ts';
import { browserConsumer } from '../../../src/content/consumers/browser.ts';
import { consumerProfile } from '../../../src/content/consumers/content-consumer.ts';
import {
  binaryStep,
  contentConsumers,
  executableStep,
  judgeBinaryForProfile,
} from '../../../src/content/consumers/consumer-registry.ts';
import { pdfReaderConsumer } from '../../../src/content/consumers/pdf-reader.ts';
import { shellConsumer } from '../../../src/content/consumers/shell.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { makePdf, makeZip } from '../../fixtures/make-bytes.ts';

const body = (kind: string, bytes: Buffer, carried: string | null = null) => ({
  kind,
  bytes,
  maxInflateBytes: undefined,
  end: 0,
  carried,
});

describe('judgeBinaryForProfile', () => {
  const pdfSteps = [binaryStep(pdfReaderConsumer, 'document'), binaryStep(shellConsumer, 'appendedArchive')];
  // a pdf with an OpenAction and a zip archive after it: both readings would find something
  const both = Buffer.concat([makePdf({ activeName: 'JavaScript' }), makeZip([{ name: 'a.txt', data: 'x' }])]);

  test('the first step whose consumer is in the profile makes the finding', () => {
    const sniff = blankSniff('pdf', false);
    judgeBinaryForProfile(
      body('pdf', both),
      consumerProfile(['pdf-reader', 'shell']),
      pdfSteps,
      sniff,
      WorkBudget.unlimited(),
    );
    expect(sniff.active).toMatch(/pdf active content `\/JavaScript`/);
  });

  test('a step whose consumer is left out is not asked', () => {
    const sniff = blankSniff('pdf', false);
    judgeBinaryForProfile(body('pdf', both), consumerProfile(['shell']), pdfSteps, sniff, WorkBudget.unlimited());
    expect(sniff.active).toMatch(/the pdf is also a zip archive/);
    const none = blankSniff('pdf', false);
    judgeBinaryForProfile(body('pdf', both), consumerProfile(['browser']), pdfSteps, none, WorkBudget.unlimited());
    expect(none.active).toBeNull();
  });

  test('what a format reader carried is judged by the consumer that opens it', () => {
    const sniff = blankSniff('png', false);
    const step = binaryStep(browserConsumer, 'metadata');
    judgeBinaryForProfile(
      body('png', Buffer.alloc(8), 'a script in metadata'),
      consumerProfile(['browser']),
      [step],
      sniff,
      WorkBudget.unlimited(),
    );
    expect(sniff.active).toBe('a script in metadata');
  });

  test('executables go to the launcher (lnk) or the shell', () => {
    expect(executableStep('lnk')?.consumer).toBe('launcher');
    expect(executableStep('pe')?.consumer).toBe('shell');
    expect(executableStep('png')).toBeNull();
  });

  test('every binary reading belongs to a registered consumer', () => {
    const withReadings = contentConsumers.filter((c) => c.binaryReadings !== undefined).map((c) => c.id);
    expect(withReadings.sort()).toEqual(['browser', 'launcher', 'pdf-reader', 'shell']);
  });
});
