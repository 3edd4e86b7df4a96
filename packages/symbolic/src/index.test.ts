import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import * as api from './index.js';
import { VERSION } from './index.js';

describe('@fulcrum/symbolic', () => {
  it('exports a VERSION equal to package.json', () => {
    expect(pkg.name).toBe('@fulcrum/symbolic');
    expect(VERSION).toBe(pkg.version);
  });

  it('exports the constraint, the error classes and the examples', () => {
    expect(Object.keys(api).sort()).toEqual(['SymbolicConstraint', 'SymbolicError', 'SymbolicLimitError', 'SymbolicRuntimeError', 'SymbolicSyntaxError', 'SymbolicTypeError', 'VERSION', 'examples']);
    expect(Object.keys(api.examples).sort()).toEqual(['DISTANCE', 'LINE', 'MOTOR', 'PIVOT', 'WELD']);
    for (const E of [api.SymbolicSyntaxError, api.SymbolicTypeError, api.SymbolicLimitError, api.SymbolicRuntimeError]) expect(E.prototype).toBeInstanceOf(api.SymbolicError);
    expect(new api.SymbolicConstraint(api.examples.PIVOT).dimensions).toBe(2);
  });
});
