// The hook state keeps the addresses of the links the hook refused (issue 39 item 1): a later tool result of the
// session naming one is withheld whole (`content.names-refused-address`), as the decorator withholds such an answer.
// The state's bound fails closed: past `maxRefusedAddresses` addresses, or with an entry that is not a list of them
// (something else wrote it), every later tool result is withheld, none searched for fewer addresses.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxLinksPerEvent, maxRefusedAddresses, refusedCombinedAfter } from '../../src/hook/session-state.ts';
import { hookScratch } from './hook-args.ts';
import { codexToolReturned, resourcesListed, toolReturned } from './hook-events.ts';

const scratch = hookScratch('linkgate-refused-addresses-');
const hook = (event: unknown, ...extra: string[]) => scratch.hook('claude-code', event, ...extra);
const link = (uri: string, name = 'a link') => ({ type: 'resource_link', uri, name });
const text = (t: string) => ({ type: 'text', text: t });
const internal = (i: number) => `http://10.0.${i >> 8}.${i & 255}/x`;
/** A tool result of `count` refused links (distinct internal addresses from `from`), under its own tool-use id. */
const refusedLinks = (from: number, count: number, id: string) =>
  toolReturned(
    'docs',
    'links',
    Array.from({ length: count }, (_, i) => link(internal(from + i))),
    { toolUseId: id },
  );
const later = (t: string, id = 'toolu_later') => toolReturned('docs', 'notes', [text(t)], { toolUseId: id });

describe('a later tool result naming a refused address', () => {
  it('is withheld, as written or read back (percent-encoded)', async () => {
    expect((await hook(refusedLinks(0, 3, 'toolu_1'))).code).toBe(0);
    for (const prose of ['fetch http://10.0.0.1/x now', 'fetch http://10.0.0.%32/x now']) {
      const run = await hook(later(prose));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('content.names-refused-address');
      expect(run.stdout).not.toContain('10.0.0');
    }
    // another address, and the same host with another path, pass
    for (const prose of ['see http://10.0.0.9/x', 'see http://10.0.0.1/y'])
      expect((await hook(later(prose))).stdout).toBe('');
  });

  it("a resource list's refused entry counts too", async () => {
    const entries = [{ server: 'docs', uri: 'file:///etc/shadow', name: 'shadow' }];
    expect((await hook(resourcesListed(entries))).code).toBe(0);
    expect((await hook(later('cat /etc/shadow please'))).stdout).toContain('content.names-refused-address');
  });

  it('a link refused for its declared size alone is not searched for (a listing shows its address too)', async () => {
    // Codex hands its hook the link item as the server sent it, declared size included
    const big = { ...link('guide://manuals/big'), size: 2 ** 40 };
    const first = await scratch.hook('codex', codexToolReturned({ content: [big] }));
    expect(first.stdout).toContain('size.declared-too-large');
    const next = codexToolReturned({ content: [text('the big manual is guide://manuals/big')] }, { toolUseId: 'c2' });
    expect((await scratch.hook('codex', next)).stdout).toBe('');
    // refused for its address, the same prose is withheld
    await scratch.hook('codex', codexToolReturned({ content: [link('http://127.0.0.1/big')] }, { toolUseId: 'c3' }));
    const naming = codexToolReturned({ content: [text('try http://127.0.0.1/big')] }, { toolUseId: 'c4' });
    expect((await scratch.hook('codex', naming)).stdout).toContain('content.names-refused-address');
  });

  it('observe mode withholds nothing', async () => {
    await hook(refusedLinks(0, 1, 'toolu_1'), '--mode', 'observe');
    expect((await hook(later('fetch http://10.0.0.0/x'), '--mode', 'observe')).stdout).toBe('');
  });
});

describe('the bound on refused addresses fails closed', () => {
  it(`past ${maxRefusedAddresses} addresses every later tool result is withheld`, async () => {
    const half = Math.ceil((maxRefusedAddresses + 1) / 2);
    expect(half).toBeLessThanOrEqual(maxLinksPerEvent);
    expect((await hook(refusedLinks(0, half, 'toolu_1'))).code).toBe(0);
    // at the bound: still searched
    expect((await hook(later('nothing to see'))).stdout).toBe('');
    expect((await hook(refusedLinks(half, half, 'toolu_2'))).code).toBe(0);
    const run = await hook(later('nothing to see', 'toolu_3'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('content.names-refused-address');
    expect(run.stdout).not.toContain('nothing to see');
  });

  it('an entry that is not a list of addresses withholds every later result', async () => {
    await hook(refusedLinks(0, 1, 'toolu_1'));
    const session = readdirSync(join(scratch.dir, 'state')).find((name) => name.startsWith('s-'));
    writeFileSync(join(scratch.dir, 'state', session as string, 'refused-planted.json'), '{"not":"a list"}');
    const run = await hook(later('nothing to see'));
    expect(run.stdout).toContain('content.names-refused-address');
  });
});

const updated = (stdout: string) => JSON.parse(stdout).hookSpecificOutput.updatedToolOutput as unknown;

describe('a resource listing naming an address refused earlier (second reading, finding 2)', () => {
  it('keeps what names none, as the decorator does: the entry named by it left out, a text naming it a notice', async () => {
    expect((await hook(refusedLinks(0, 1, 'toolu_1'))).code).toBe(0);
    const entries = [
      { server: 'docs', uri: 'rt://docs/a.md', name: 'a', description: 'mirror of http://10.0.0.0/x' },
      { server: 'docs', uri: 'rt://docs/b.md', name: 'http://10.0.0.0/x' },
      { server: 'docs', uri: 'rt://docs/c.md', name: 'c', description: 'plain' },
    ];
    const run = await hook(resourcesListed(entries, { toolUseId: 'toolu_list' }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('10.0.0.0');
    expect(updated(run.stdout)).toEqual([
      { ...entries[0], description: expect.stringContaining('names the address of a link the gate refused') },
      entries[2],
    ]);
  });

  it('a listing in a shape the decorator cannot take apart is withheld whole', async () => {
    expect((await hook(refusedLinks(0, 1, 'toolu_1'))).code).toBe(0);
    const odd = { ...resourcesListed([]), tool_response: { note: 'see http://10.0.0.0/x', resources: [] } };
    const run = await hook(odd);
    expect(run.stdout).toContain('content.names-refused-address');
    expect(run.stdout).not.toContain('10.0.0.0');
  });

  it('a listing naming none, or in observe mode, passes unchanged', async () => {
    expect((await hook(refusedLinks(0, 1, 'toolu_1'))).code).toBe(0);
    const entries = [{ server: 'docs', uri: 'rt://docs/c.md', name: 'c', description: 'http://10.0.0.9/x' }];
    expect((await hook(resourcesListed(entries))).stdout).toBe('');
    const naming = [{ server: 'docs', uri: 'rt://docs/b.md', name: 'http://10.0.0.0/x' }];
    expect((await hook(resourcesListed(naming), '--mode', 'observe')).stdout).toBe('');
  });
});

describe("a refused link's notice does not hand on another refused address in the link's name (finding 5b)", () => {
  it('the notice names that link by its scheme only', async () => {
    expect((await hook(refusedLinks(0, 1, 'toolu_1'))).code).toBe(0);
    // a second refused link whose name is the first one's address, beside ordinary text
    const named = toolReturned('docs', 'links', [link('http://10.0.9.9/y', 'http://10.0.0.0/x'), text('hello')], {
      toolUseId: 'toolu_2',
    });
    const run = await hook(named);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('10.0.0.0');
    expect(run.stdout).not.toContain('10.0.9.9');
    expect(updated(run.stdout)).toEqual([
      { type: 'text', text: expect.stringMatching(/^linkgate refused the link \(scheme `http`\): uri\./) },
      text('hello'),
    ]);
  });

  it('also when the name carries the address of a link refused in the same result', async () => {
    const both = toolReturned('docs', 'links', [
      link('http://10.0.0.7/z', 'z'),
      link('http://10.0.9.9/y', 'at 10.0.0.7/z'),
    ]);
    const run = await hook(both);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('10.0.0.7');
    expect(run.stdout).toContain('refused the link `z`');
  });

  it('a name naming no refused address is still quoted', async () => {
    const run = await hook(toolReturned('docs', 'links', [link('http://10.0.9.9/y', 'keys')]));
    expect(run.stdout).toContain('refused the link `keys`');
  });
});

describe('the refused addresses kept in one combined entry (every tool result reads them)', () => {
  const sessionFolder = () => {
    const state = join(scratch.dir, 'state');
    return join(state, readdirSync(state).find((name) => name.startsWith('s-')) as string);
  };
  const combined = () => readdirSync(sessionFolder()).filter((name) => name.startsWith('allrefused-'));
  /** `count` tool results of one refused link each (as many `refused-` entries), the first's address `internal(0)`. */
  const refusedOneByOne = async (count: number) => {
    for (let i = 0; i < count; i++) expect((await hook(refusedLinks(i, 1, `toolu_r${i}`))).code).toBe(0);
  };

  it(`is written once ${refusedCombinedAfter} entries were read one by one, and searched as they were`, async () => {
    await refusedOneByOne(refusedCombinedAfter);
    expect(combined()).toEqual([]);
    // the next result reads them all and combines them; the one after reads the combined entry
    expect((await hook(later('nothing to see', 'toolu_a'))).stdout).toBe('');
    expect(combined()).toHaveLength(1);
    for (const i of [0, refusedCombinedAfter - 1])
      expect((await hook(later(`fetch ${internal(i)}`, `toolu_b${i}`))).stdout).toContain(
        'content.names-refused-address',
      );
    // an address refused after it is read from its own entry
    await hook(refusedLinks(500, 1, 'toolu_new'));
    expect((await hook(later(`fetch ${internal(500)}`, 'toolu_c'))).stdout).toContain('content.names-refused-address');
  });

  it('a combined entry that is not what the hook writes is left aside: the entries it names are read again', async () => {
    await refusedOneByOne(refusedCombinedAfter);
    await hook(later('nothing to see', 'toolu_a'));
    const [name] = combined();
    const entries = readdirSync(sessionFolder()).filter((n) => n.startsWith('refused-'));
    // it claims every entry and holds no address of theirs
    writeFileSync(join(sessionFolder(), name as string), JSON.stringify({ names: entries, addresses: 'none' }));
    expect((await hook(later(`fetch ${internal(0)}`, 'toolu_b'))).stdout).toContain('content.names-refused-address');
    writeFileSync(join(sessionFolder(), name as string), '{not json');
    expect((await hook(later(`fetch ${internal(1)}`, 'toolu_c'))).stdout).toContain('content.names-refused-address');
  });

  it('an entry it does not name that is not a list of addresses still withholds every later result', async () => {
    await refusedOneByOne(refusedCombinedAfter);
    await hook(later('nothing to see', 'toolu_a'));
    expect(combined()).toHaveLength(1);
    writeFileSync(join(sessionFolder(), 'refused-planted.json'), '{"not":"a list"}');
    expect((await hook(later('nothing to see', 'toolu_b'))).stdout).toContain('content.names-refused-address');
  });

  it('an entry it names that is gone keeps its addresses', async () => {
    await refusedOneByOne(refusedCombinedAfter);
    await hook(later('nothing to see', 'toolu_a'));
    for (const n of readdirSync(sessionFolder()).filter((e) => e.startsWith('refused-')))
      rmSync(join(sessionFolder(), n));
    expect((await hook(later(`fetch ${internal(3)}`, 'toolu_b'))).stdout).toContain('content.names-refused-address');
  });
});
