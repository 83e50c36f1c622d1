// A tool's `input_required` answer whose URL-mode elicitation url the gate refuses becomes the gate's tool result: the
// notice as an error, the decision under the item's `_meta` (issue 39 item 3). That decision is the one its notice may
// show (`shownDecision`), as a refused read's error data is: the raw one quoted the refused url's host in its reason's
// message (`uri.non-public-address`), so the address the notice leaves out was handed on beside it. Both front ends
// before the one-write server (order-fronts.ts): the proxy, and a real SDK client over `gateTransport`.
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll } from '../redteam/scripted-host.ts';
import { callWith, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const refused = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/admin';
const inputRequired = {
  resultType: 'input_required',
  inputRequests: {
    signIn: { method: 'elicitation/create', params: { mode: 'url', url: refused, message: 'sign in' } },
  },
  requestState: 'state-1',
};

for (const [front, start] of orderFronts)
  describe(`a refused elicitation url's tool result through the ${front}`, () => {
    test('its notice and the decision beside it name the reason by its code, never the url or its host', async () => {
      const f = await start();
      const answer = await callWith(f, { result: inputRequired });
      const handed = JSON.stringify(answer);
      expect(handed).toContain('linkgate refused the url the server asked the host to open');
      expect(handed).toContain('io.linkgate/decision');
      expect(handed).toContain('uri.non-public-address');
      expect(handed).not.toContain('169.254.169.254');
      expect(await f.got()).not.toContain('169.254.169.254');
    });
  });
