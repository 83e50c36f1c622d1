// An attribute's `content` is read for a url the way a meta refresh reads it: by the HTML standard's shared declarative
// refresh steps (leaves-page.ts refreshUrl), one parser for both the page rules and the url check. A value those steps
// read a script or markup url from is active however it is spaced, quoted or cased; a value they read no url from (a
// description mentioning `javascript:`) refreshes nothing, and is not a url.
import { describe, expect, test } from 'vitest';
import { findActiveHtml } from '../../../src/content/svg-html/active-html.ts';
import { refreshUrl } from '../../../src/content/svg-html/leaves-page.ts';
import { activeAttributeUrl } from '../../../src/content/svg-html/markup-url.ts';

describe('a content attribute is read by the refresh steps', () => {
  test.for([
    '0;url=javascript:alert(1)',
    '0; URL = javascript:alert(1)',
    "0;url='javascript:alert(1)'",
    '5, url="javascript:alert(1)"',
    '1.5 javascript:alert(1)',
    '0;url=data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
  ])('%s is active', (content) => {
    expect(activeAttributeUrl('content', content)).not.toBeNull();
    expect(findActiveHtml(`<meta http-equiv="refresh" content="${content.replaceAll('"', '&quot;')}">`)).not.toBeNull();
  });

  test.for([
    'How javascript: urls run, and why a data: url is a document',
    'see: javascript:alert(1) in the notes',
    '0;url=https://example.com/next',
  ])('%s is no active url', (content) => {
    expect(activeAttributeUrl('content', content)).toBeNull();
  });

  test('the url is the refresh steps own', () => {
    expect(refreshUrl('0; URL = javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(refreshUrl('How javascript: urls run')).toBeNull();
  });

  test('a page describing script urls in its meta description is not active', () => {
    expect(
      findActiveHtml('<!doctype html><meta name="description" content="How javascript: and data: urls run"><p>x</p>'),
    ).toBeNull();
  });
});
