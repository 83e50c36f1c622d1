// A URL-mode elicitation asks the host to open a url the server chose: it gets the link decision wherever it comes
// (a read's `input_required` with `read.answerInputRequired` on, a tool result's, a server request), and a refused url
// never reaches whoever would open it.
import { describe, expect, test } from 'vitest';
import {
  inputRequestUrls,
  refusedElicitation,
  refusedElicitationNotice,
  urlElicitationOf,
} from '../../src/flow/elicitation-urls.ts';
import type { LinkReader } from '../../src/flow/link-reader.ts';
import { runLinkFlow } from '../../src/flow/run-link-flow.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import type { LinkContext } from '../../src/record/build-stages.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

const context: LinkContext = {
  server: 'docs',
  tool: 'find',
  responseId: 1,
  protocolVersion: '2026-07-28',
  client: null,
  serverInfo: null,
};
const link = { type: 'resource_link', uri: 'docs://guide.txt', name: 'guide', mimeType: 'text/plain' };

const inputRequired = (url: string) => ({
  result: {
    resultType: 'input_required',
    inputRequests: { login: { method: 'elicitation/create', params: { mode: 'url', url, message: 'sign in' } } },
    requestState: 'state',
  },
});

describe('url elicitations', () => {
  test('are found only in url mode, in input requests and server requests', () => {
    expect(urlElicitationOf({ mode: 'url', url: 'https://a.example/x' })).toEqual([{ url: 'https://a.example/x' }]);
    expect(urlElicitationOf({ mode: 'form', message: 'name?' })).toEqual([]);
    // a url-mode request without a string url is judged as the empty uri: denied
    expect(urlElicitationOf({ mode: 'url' })).toEqual([{ url: '' }]);
    expect(inputRequestUrls(inputRequired('https://a.example/x').result)).toEqual([{ url: 'https://a.example/x' }]);
    expect(inputRequestUrls({ inputRequests: { r: { method: 'sampling/createMessage', params: {} } } })).toEqual([]);
  });

  test.each([
    ['http://169.254.169.254/latest/api/token', 'uri.non-public-address'],
    ['file:///etc/passwd', 'uri.scheme-not-allowed'],
    ['javascript:alert(1)', 'uri.scheme-not-allowed'],
    ['', 'uri.invalid'],
  ])('%j is refused by the link rules, and the notice names no part of it', async (url, code) => {
    const gate = createGate(await defaultPolicyWith());
    const refused = await refusedElicitation(gate, 'docs', [{ url: 'https://auth.example.com/ok' }, { url }]);
    expect(refused?.decision.reasons.map((r) => r.code)).toContain(code);
    const notice = refusedElicitationNotice(refused?.decision ?? gate.decideLink({}), refused?.scheme ?? '');
    if (url !== '') expect(notice).not.toContain(url.slice(url.indexOf(':') + 1));
  });

  test('a public https url is allowed', async () => {
    const gate = createGate(await defaultPolicyWith());
    expect(await refusedElicitation(gate, 'docs', [{ url: 'https://auth.example.com/login?s=1' }])).toBeNull();
  });

  test.each([
    ['http://169.254.169.254/latest/api/token', false],
    ['https://auth.example.com/login', true],
  ])('a read answering input_required for %s is answered by the host: %s', async (url, answered) => {
    const gate = createGate(await defaultPolicyWith({ answerInputRequired: true }));
    const asked: unknown[] = [];
    const read: LinkReader = async (params) =>
      params['inputResponses'] === undefined
        ? inputRequired(url)
        : { result: { resultType: 'complete', contents: [{ uri: link.uri, mimeType: 'text/plain', text: 'ok\n' }] } };
    const { record } = await runLinkFlow(link, 0, {
      gate,
      read,
      context,
      mode: 'enforce',
      answerInput: async (requests) => {
        asked.push(requests);
        return { login: { action: 'accept' } };
      },
    });
    expect(asked.length > 0).toBe(answered);
    expect(record.verdict).toBe(answered ? 'body-obtained' : 'unverifiable');
    if (!answered) expect(record.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.input-required']);
  });
});
