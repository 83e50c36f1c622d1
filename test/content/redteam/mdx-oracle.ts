// The oracle of the MDX rounds (mdx-rounds.real-host.test.ts, round10-mdx.real-host.test.ts): the real `@mdx-js/mdx`
// compiler, installed on demand into the test cache (under CI=true a missing compiler fails the suite), evaluates a page
// with a recording JSX runtime, and the page is live when it rendered what makes a browser leave or load from elsewhere.
import { pathToFileURL } from 'node:url';
import { frameworkSuite } from '../../frameworks/framework-package.ts';

/** The real MDX compiler's suite: `suite.require(ctx)` is its install folder, or the suite fails (CI) or skips. */
export const mdxCompilerSuite = () =>
  frameworkSuite('the mdx compiler', {
    name: '@mdx-js/mdx',
    version: '3.1.1',
    entry: 'node_modules/@mdx-js/mdx/index.js',
  });

/** The part of `@mdx-js/mdx` the rounds use. */
export interface Mdx {
  evaluate(
    file: string,
    options: Record<string, unknown>,
  ): Promise<{ default: (props: Record<string, unknown>) => unknown }>;
}

const offOrigin = (href: unknown): boolean =>
  typeof href === 'string' && new URL(href, 'https://site.invalid/docs/').origin !== 'https://site.invalid';

/** What the rendered page makes a browser do by itself: leave (a refresh, a base) or load a stylesheet from elsewhere. */
export async function rendered(mdx: Mdx, text: string): Promise<string[]> {
  const seen: string[] = [];
  const record = (type: unknown, props: Record<string, unknown>) => {
    if (type === 'meta' && /^\s*refresh\s*$/i.test(String(props['httpEquiv'] ?? ''))) seen.push('a meta refresh');
    if (type === 'base' && offOrigin(props['href'])) seen.push('a base off the site');
    const rel = String(props['rel'] ?? '')
      .toLowerCase()
      .split(/\s+/);
    if (type === 'link' && rel.includes('stylesheet') && offOrigin(props['href']))
      seen.push('a stylesheet from elsewhere');
    return { type, props };
  };
  const page = await mdx.evaluate(text, {
    Fragment: Symbol('fragment'),
    jsx: record,
    jsxs: record,
    baseUrl: pathToFileURL(`${import.meta.dirname}/`).href,
  });
  page.default({});
  return seen;
}
