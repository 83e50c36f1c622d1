import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { decideBody, profileGate } from './consumers/profile-gate.ts';
import { activeInPdfJs } from './pdf/pdf-differential.ts';
test('x', async () => {
  const g = profileGate(['pdf-reader'], ['application/octet-stream']);
  for (const f of (process.env.FILES ?? '').split(',')) {
    const b = readFileSync(f);
    const v = await decideBody(g, 'guide://docs/report.pdf', 'application/pdf', { blob: b.toString('base64') });
    console.log(f, v.effect, v.why.slice(0, 200), 'pdfjs:', await activeInPdfJs(b));
  }
});
