// The forms a refused address is searched by (`keptForms`: as written, read back, IDNA, dotted) were most of what the
// search of a session's refused addresses cost each tool-result event (1 024 addresses: ~60 ms CPU of ~95 ms). They
// are made once, by the event that refused the address, and kept beside it in the session's state; a later event takes
// them from there when they were made by this build of linkgate (`formsKey`) and have the shape `keptForms` gives (a
// few lower-case forms of 3 to `maxAddressChars` characters, the address as written first). Anything else is made
// again, never searched for less. Whoever can write the state can as well remove an entry: kept forms open no new way
// around the search.
import { type AddressForm, maxAddressChars, minAddressChars } from '../flow/address-search.ts';
import { rawAddressOf } from '../flow/read-back.ts';
import { policyBuildKey } from '../policy/policy-cache.ts';
import { keptForms } from '../sdk/refused-addresses.ts';

/** Layout of kept forms; changing it (or what `keptForms` makes) must change it, which turns every kept one into a miss. */
export const refusedFormsFormat = 1;

/** Most forms one address has (`addressForms`: four sources, each also read back). */
const maxFormsPerAddress = 8;

/** The forms of refused addresses, by address. */
export type FormsByAddress = Map<string, readonly AddressForm[]>;

/** Kept forms as a state entry holds them: per address of the entry (same order), each form's text and `hostEnd`. */
export interface KeptForms {
  formsKey: string;
  forms: [string, boolean][][];
}

/**
 * What kept forms are made by: the layout and this build of linkgate (its version and policy schema, as the policy
 * cache is keyed); undefined when the build is not known (no forms are kept or taken then). Worked out at each call:
 * whoever keeps and takes forms holds it (`SessionState` asks once), nothing is kept in this module.
 */
export function formsKey(): string | undefined {
  const build = policyBuildKey();
  return build === undefined ? undefined : `linkgate refused forms ${refusedFormsFormat} ${build}`;
}

/** `made` with the forms of each of `addresses` it lacks made now (`keptForms`). */
export function withFormsOf(addresses: readonly string[], made: FormsByAddress = new Map()): FormsByAddress {
  for (const address of addresses)
    if (address.length >= minAddressChars && !made.has(address)) made.set(address, keptForms(address));
  return made;
}

/**
 * The kept forms of `addresses` (each in `forms`), as an entry holds them, made by build `made` (`formsKey()`); empty
 * when the build is not known.
 */
export function keptFormsOf(
  addresses: readonly string[],
  forms: FormsByAddress,
  made: string | undefined,
): Partial<KeptForms> {
  if (made === undefined) return {};
  return {
    formsKey: made,
    forms: addresses.map((a) => (forms.get(a) ?? []).map((f): [string, boolean] => [f.text, f.hostEnd])),
  };
}

/**
 * Adds to `into` the forms `entry` (a state entry holding `addresses`) kept for them, each that has the shape
 * `keptForms` gives; none when the entry's forms were made by another build or layout than `current` (`formsKey()`;
 * undefined: none is taken), or are not one list per address.
 */
export function takeKeptForms(
  entry: Readonly<Record<string, unknown>>,
  addresses: readonly string[],
  into: FormsByAddress,
  current: string | undefined,
) {
  const forms = entry['forms'];
  if (current === undefined || entry['formsKey'] !== current) return;
  if (!Array.isArray(forms) || forms.length !== addresses.length) return;
  addresses.forEach((address, i) => {
    const taken = validForms(address, forms[i]);
    if (taken !== null) into.set(address, taken);
  });
}

// `value` as the forms of `address`, or null when it is not what `keptForms` makes of it
function validForms(address: string, value: unknown): AddressForm[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > maxFormsPerAddress) return null;
  const forms: AddressForm[] = [];
  for (const form of value as unknown[]) {
    if (!Array.isArray(form) || form.length !== 2) return null;
    const [text, hostEnd] = form as unknown[];
    if (typeof text !== 'string' || typeof hostEnd !== 'boolean') return null;
    if (text.length < minAddressChars || text.length > maxAddressChars || text !== text.toLowerCase()) return null;
    forms.push({ text, hostEnd });
  }
  // the address as written comes first (`addressForms` takes it first whenever it is long enough)
  const written = rawAddressOf(`http://${address}`).slice(0, maxAddressChars);
  if (written.length >= minAddressChars && forms[0]?.text !== written) return null;
  return forms;
}
