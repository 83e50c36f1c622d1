// Kept forms are taken by a later event when `formsKey` matches: the layout (`refusedFormsFormat`) and the build's
// version and policy schema. A change to what `keptForms` makes that keeps both would let a later event of another
// checkout search for the forms of the old code (reading 9, finding 3). This pins what `keptForms` makes of probes
// covering each of its sources to the format number: when it fails, bump `refusedFormsFormat` and the pin together.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { refusedFormsFormat } from '../../src/hook/refused-forms.ts';
import { keptForms } from '../../src/sdk/refused-addresses.ts';

const probes = [
  'http://bücher.example/x',
  'http://xn--bcher-kva.example/x',
  'HTTP://Example.COM:8080/%41b',
  'http://0x7f.1/latest/meta-data',
  'http://169.254.169.254/latest',
  'http://[FD00:0::1]:8080/a',
  'file:///etc/passwd',
  'https://user:pw@faß.de/a?b#c',
];

test('what keptForms makes is pinned to refusedFormsFormat: a change of one without the other fails', () => {
  const made = JSON.stringify(probes.map((p) => keptForms(p).map((f) => [f.text, f.hostEnd])));
  const fingerprint = createHash('sha256').update(made).digest('hex').slice(0, 16);
  expect({ refusedFormsFormat, fingerprint }).toEqual({ refusedFormsFormat: 1, fingerprint: '1b185e4d20ff21be' });
});
