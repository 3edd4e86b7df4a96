import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import { VERSION } from './index.js';

describe('@fulcrum/symbolic', () => {
  it('exports a VERSION equal to package.json', () => {
    expect(pkg.name).toBe('@fulcrum/symbolic');
    expect(VERSION).toBe(pkg.version);
  });
});
