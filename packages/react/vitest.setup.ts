// Every space the tests make checks its user constraints' hand-written derivatives
// (Space.checkUserConstraints), as in the engine's own tests: the engine's test setup sets the
// default for spaces made from now on. (Vitest resolves @fulcrum/physics to its source, so this
// is the same module instance the components use.) A <Physics checkUserConstraints={false}> or
// new Space({ checkUserConstraints: false }) still turns it off.
import '../physics/src/test-support/check-user-constraints.js';

// Tell React that tests run inside act(), which silences its act() environment warnings.
declare global {
  // eslint-disable-next-line no-var
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

globalThis.IS_REACT_ACT_ENVIRONMENT = true;

// R3F 9.8.2 still creates a THREE.Clock, which three 0.187 reports as deprecated once per root
// (harmless, see toolchain.md). Drop that one message so real warnings stand out.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('THREE.Clock: This module has been deprecated')) return;
  warn(...args);
};

export {};
