// What the consumer app installs: the packed tarballs, the lowest versions that @fulcrum/react's
// peer ranges allow (the monorepo's own tests cover the newest, pinned in the root package.json),
// and the build tools at the versions the monorepo pins, which are in the npm cache already.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './workspace.mjs';

/** The peers whose lowest versions are installed. */
export const PEERS = Object.freeze(['react', '@react-three/fiber', 'three']);
/** Build tools, installed at the root package.json's versions. */
export const TOOLS = Object.freeze(['vite', '@vitejs/plugin-react', 'typescript']);

/**
 * The lowest version a range allows. Only the plain forms `^x.y.z`, `~x.y.z`, `>=x.y.z` and
 * `x.y.z` are accepted: for anything else "lowest" would need a semver library, and a peer range
 * that needs one is worth a second look.
 */
export function lowestVersion(range) {
  const match = /^(?:\^|~|>=)?(\d+\.\d+\.\d+)$/.exec(String(range).trim());
  if (!match) throw new Error(`lowestVersion: range must be ^x.y.z, ~x.y.z, >=x.y.z or x.y.z, got ${JSON.stringify(range)}`);
  return match[1];
}

/** `~x.y.0`: the newest patch of the x.y line (for @types packages, which follow their library's x.y). */
const sameMinor = (version) => `~${version.split('.').slice(0, 2).join('.')}.0`;

/**
 * The consumer app's dependencies: `packed` (from packLibraries) as `file:` tarballs relative to
 * `appDir`, react and react-dom (react-three-fiber's peer, at React's version), @react-three/fiber
 * and three at the lowest versions `reactPeers` (the packed @fulcrum/react's peerDependencies)
 * allow, their type packages, and the build tools.
 */
export function appDependencies({ appDir, packed, reactPeers }) {
  const rootDevDependencies = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).devDependencies;
  const deps = {};
  for (const pkg of packed) deps[pkg.name] = `file:${relative(appDir, pkg.tarball)}`;
  for (const peer of PEERS) {
    if (!reactPeers[peer]) throw new Error(`@fulcrum/react's peerDependencies name no ${peer}`);
    deps[peer] = lowestVersion(reactPeers[peer]);
  }
  deps['react-dom'] = deps.react;
  deps['@types/react'] = sameMinor(deps.react);
  deps['@types/react-dom'] = sameMinor(deps.react);
  deps['@types/three'] = sameMinor(deps.three);
  for (const tool of TOOLS) {
    if (!rootDevDependencies[tool]) throw new Error(`the root package.json pins no ${tool}`);
    deps[tool] = rootDevDependencies[tool];
  }
  return deps;
}
