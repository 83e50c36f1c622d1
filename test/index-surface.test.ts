import { describe, expect, it } from 'vitest';
import * as linkgate from '../src/index.ts';

describe('public surface', () => {
  // the surface changes only on purpose: update this list in the same commit that changes src/index.ts
  it('exports exactly these runtime names', () => {
    expect(Object.keys(linkgate).sort()).toMatchSnapshot();
  });
});
