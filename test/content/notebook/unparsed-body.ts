// A JSON body whose parse fails the test: only a scan of its bytes may look at it (the notebook recognition tests).
import type { TextBody } from '../../../src/content/consumers/content-consumer.ts';

/** `text` as a JSON body whose `json()` throws: a judge that parses it fails the test. */
export function unparsed(text: string): TextBody {
  const bytes = Buffer.from(text);
  return {
    bytes,
    utf8: bytes,
    text: () => text,
    mayHoldActiveMarkup: () => true,
    mayHold: () => true,
    kind: 'json',
    declaredMime: 'application/json',
    declaredKind: 'json',
    declaredData: null,
    uri: 'guide://data/nested.json',
    extension: 'json',
    readByXml: false,
    terminalControls: [],
    maxInflateBytes: undefined,
    json: () => {
      throw new Error('parsed');
    },
  };
}
