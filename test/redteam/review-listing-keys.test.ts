// Review of cfff135 (listings judged): the answer's entries were taken from `resources` when it is an array, else from
// `resourceTemplates`. A server answering `resources/templates/list` with an empty `resources` beside its templates
// had none of them judged, and a `resources/list` answer carrying `resourceTemplates` too passed those whole: the
// host's SDK keeps both keys (its result schemas pass unknown keys on) and a host that hands the listing to the model
// hands them all. Every listing array of the answer is judged, whatever the method.
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, hostPath, listingFronts } from './scripted-host.ts';

afterEach(closeAll);

const imds = { uriTemplate: 'http://169.254.169.254/latest/{path}', name: 'imds' };
const creds = { uri: 'http://169.254.169.254/latest/meta-data/', name: 'creds' };
const listing = {
  resources: [{ uri: 'rt://docs/Guide.md', name: 'guide' }],
  resourceTemplates: [{ uriTemplate: 'rt://docs/{name}', name: 'docs' }, imds],
  // an empty `resources` beside the templates, and templates beside the resources
  also: { resources: [{ uri: 'rt://docs/Guide.md', name: 'guide' }, creds], resourceTemplates: [imds] },
};

for (const [front, lists] of listingFronts(listing))
  describe(`review, listings with both keys through the ${front}`, () => {
    test('each listing array is judged, whatever the method', async () => {
      const got = JSON.stringify(await lists());
      expect(got).not.toContain(hostPath);
      expect(got).toContain('rt://docs/Guide.md');
    });
  });
