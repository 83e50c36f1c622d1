// The forms each refused address is searched by are made once, by the event that refused it, and kept beside it in the
// session's state (issue 42: making them was most of a tool-result event's cost with 1 024 refused addresses). A later
// event takes them only when they are what this build makes of the address; anything else is made again, so a kept
// form never makes the search look for less.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formsKey } from '../../src/hook/refused-forms.ts';
import { refusedSearch } from '../../src/hook/refused-named.ts';
import { refusedCombinedAfter, SessionState } from '../../src/hook/session-state.ts';
import { memoryStateEntries, type StateEntries } from '../../src/hook/state-entries.ts';
import { keptForms } from '../../src/sdk/refused-addresses.ts';
import { hookScratch } from './hook-args.ts';
import { toolReturned } from './hook-events.ts';

const internal = (i: number) => `10.0.${i >> 8}.${i & 255}/x`;

/** A state in memory whose entries a test can read and rewrite. */
function memoryState(): { state: SessionState; store: StateEntries; texts: Map<string, string> } {
  const inner = memoryStateEntries();
  const texts = new Map<string, string>();
  const store: StateEntries = {
    ...inner,
    write: async (name, text) => {
      texts.set(name, text);
      await inner.write(name, text);
    },
  };
  return { state: SessionState.over(store), store, texts };
}

describe('the forms of refused addresses kept in the state', () => {
  it('are made when the addresses are kept and taken by later events, as keptForms makes them', async () => {
    const { state } = memoryState();
    const addresses = [internal(1), 'xn--80ak6aa92e.com/%41dmin', `${'long.example/'}${'p'.repeat(300)}`.slice(0, 256)];
    const made = await state.addRefused('call-1', addresses);
    expect([...made.keys()]).toEqual(addresses);
    const read = await state.refusedAddresses();
    expect(read.complete).toBe(true);
    for (const address of addresses) expect(read.forms?.get(address)).toEqual(keptForms(address));
  });

  it('are kept in the combined entry too', async () => {
    const { state, texts } = memoryState();
    for (let i = 0; i < refusedCombinedAfter; i++) await state.addRefused(`call-${i}`, [internal(i)]);
    await state.refusedAddresses();
    const combined = [...texts].find(([name]) => name.startsWith('allrefused-'));
    expect(combined).toBeDefined();
    const entry = JSON.parse(combined?.[1] ?? '{}') as Record<string, unknown>;
    expect(entry['formsKey']).toBe(formsKey());
    // a later event reads the combined entry alone, forms and all
    const read = await state.refusedAddresses();
    expect(read.addresses).toHaveLength(refusedCombinedAfter);
    expect(read.forms?.get(internal(3))).toEqual(keptForms(internal(3)));
  });

  it.each([
    ['another build', (e: Record<string, unknown>) => ({ ...e, formsKey: 'linkgate refused forms 0 other' })],
    ['forms of another address', (e: Record<string, unknown>) => ({ ...e, forms: [[['10.9.9.9/y', false]]] })],
    [
      'an upper-case form',
      (e: Record<string, unknown>) => ({
        ...e,
        forms: [
          [
            ['10.0.0.1/x', false],
            ['A.B', true],
          ],
        ],
      }),
    ],
    ['one list too few', (e: Record<string, unknown>) => ({ ...e, forms: [] })],
    ['not a pair', (e: Record<string, unknown>) => ({ ...e, forms: [[['10.0.0.1/x']]] })],
  ])('are made again when the entry holds %s, and the address is still found', async (_, change) => {
    const { state, store, texts } = memoryState();
    await state.addRefused('call-1', [internal(1)]);
    const [name, text] = [...texts][0] as [string, string];
    await store.write(name, JSON.stringify(change(JSON.parse(text) as Record<string, unknown>)));
    const read = await state.refusedAddresses();
    expect(read.complete).toBe(true);
    expect(read.forms?.has(internal(1))).toBe(false);
    const search = refusedSearch(read);
    expect(search?.names(`fetch http://${internal(1)} now`)).toBe(true);
    // read back (percent-encoded), which only the forms made again find
    expect(search?.names('fetch http://10.0.0.%31/x now')).toBe(true);
    expect(search?.names('fetch http://10.0.0.9/x now')).toBe(false);
  });

  it('an entry written as a bare list of addresses (an older hook) is read, its forms made', async () => {
    const { state, store } = memoryState();
    await store.write('refused-older.json', JSON.stringify([internal(1)]));
    const read = await state.refusedAddresses();
    expect(read).toMatchObject({ addresses: [internal(1)], complete: true });
    expect(refusedSearch(read)?.names(`see ${internal(1)}`)).toBe(true);
  });
});

describe('the build kept forms are made by, held by the state', () => {
  it('a state keeps forms under its own key, and one with another key makes them again', async () => {
    const inner = memoryStateEntries();
    const one = SessionState.over(inner, { formsKey: 'linkgate refused forms 1 build-a' });
    await one.addRefused('call-1', [internal(1)]);
    expect((await one.refusedAddresses()).forms?.get(internal(1))).toEqual(keptForms(internal(1)));
    // the same entries, read by a state of another build in the same process: nothing taken, the address still found
    const other = SessionState.over(inner, { formsKey: 'linkgate refused forms 1 build-b' });
    const read = await other.refusedAddresses();
    expect(read.forms?.has(internal(1))).toBe(false);
    expect(refusedSearch(read)?.names('fetch http://10.0.0.%31/x now')).toBe(true);
  });

  it('a state of an unknown build keeps and takes no forms', async () => {
    const inner = memoryStateEntries();
    const unknown = SessionState.over(inner, { formsKey: undefined });
    await unknown.addRefused('call-1', [internal(1)]);
    const [name] = await inner.names('refused-');
    expect(JSON.parse((await inner.read(name as string)) ?? '{}')).toEqual({ addresses: [internal(1)] });
    const known = SessionState.over(inner);
    await known.addRefused('call-2', [internal(2)]);
    expect((await unknown.refusedAddresses()).forms?.size).toBe(0);
    expect((await known.refusedAddresses()).forms?.has(internal(2))).toBe(true);
  });
});

describe('through the hook', () => {
  const scratch = hookScratch('linkgate-refused-forms-');
  const hook = (event: unknown) => scratch.hook('claude-code', event);
  const later = (t: string, id: string) =>
    toolReturned('docs', 'notes', [{ type: 'text', text: t }], { toolUseId: id });

  it('a refused entry with forms from another build is searched with forms made again, and passes what names none', async () => {
    const links = [{ type: 'resource_link', uri: `http://${internal(1)}`, name: 'a' }];
    expect((await hook(toolReturned('docs', 'links', links, { toolUseId: 'toolu_1' }))).code).toBe(0);
    const state = join(scratch.dir, 'state');
    const session = join(state, readdirSync(state).find((n) => n.startsWith('s-')) as string);
    const entry = readdirSync(session).find((n) => n.startsWith('refused-')) as string;
    const kept = JSON.parse(readFileSync(join(session, entry), 'utf8')) as Record<string, unknown>;
    expect(kept['formsKey']).toBe(formsKey());
    writeFileSync(join(session, entry), JSON.stringify({ ...kept, formsKey: 'other', forms: [[['zzz', true]]] }));
    expect((await hook(later('nothing to see', 'toolu_2'))).stdout).toBe('');
    expect((await hook(later('fetch http://10.0.0.%31/x', 'toolu_3'))).stdout).toContain(
      'content.names-refused-address',
    );
  });
});
