// `--compare <ref>`'s build of the ref: a temporary `git worktree add --detach` in the OS temp
// directory, given node_modules links so that its packages resolve (its own @fulcrum/* packages, the
// repo's installed dependencies), and its packages/physics and packages/symbolic built with this
// repo's TypeScript (tsc -b). Removed afterwards, also when anything fails on the way.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';

/** The prefix of the temporary directories (under os.tmpdir()). */
export const WORKTREE_PREFIX = 'fulcrum-compare-';

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The top directory of the git checkout that holds `dir`. */
export function repoRoot(dir) {
  return git(dir, 'rev-parse', '--show-toplevel');
}

/** The commit `ref` names, and its short form; throws a readable error for an unknown ref. */
export function resolveRef(ref, root) {
  let commit;
  try {
    commit = git(root, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch {
    throw new Error(`--compare: ${JSON.stringify(ref)} is not a commit of this repository (git rev-parse found nothing)`);
  }
  return { commit, short: git(root, 'rev-parse', '--short', commit) };
}

/**
 * The worktree's node_modules: a real directory with a link to each entry of the repo's root
 * node_modules, except @fulcrum, whose links (relative, `../../packages/physics` and so on) are
 * made again inside the worktree, so that they point at the worktree's own packages. (A link to the
 * whole node_modules would send `@fulcrum/physics` back to the working tree's build.)
 */
export function linkNodeModules(root, dir) {
  const from = join(root, 'node_modules');
  const to = join(dir, 'node_modules');
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    if (name === '@fulcrum') continue;
    symlinkSync(join(from, name), join(to, name));
  }
  const scope = join(from, '@fulcrum');
  if (!existsSync(scope)) return;
  mkdirSync(join(to, '@fulcrum'));
  for (const name of readdirSync(scope)) {
    const link = join(scope, name);
    if (!lstatSync(link).isSymbolicLink()) continue;
    const target = readlinkSync(link);
    // Only the workspace packages that exist at the ref.
    if (existsSync(resolve(join(to, '@fulcrum'), target))) symlinkSync(target, join(to, '@fulcrum', name));
  }
}

/**
 * Where `@fulcrum/<name>` resolves from inside the worktree: the real path of its link, which must
 * be the worktree's packages/<name> (checked after linking; a test checks it too).
 */
export function resolvedPackageDir(dir, name) {
  return realpathSync(join(dir, 'node_modules', '@fulcrum', name));
}

/**
 * Check out `commit` in a fresh temporary worktree of the repo at `root` and link its node_modules.
 * Returns { dir, remove() }; remove() takes the worktree away (git worktree remove, then the
 * temporary directory) and may be called more than once. On a failure here nothing is left behind.
 */
export function addWorktree(root, commit) {
  const tmp = mkdtempSync(join(os.tmpdir(), WORKTREE_PREFIX));
  const dir = join(tmp, 'tree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      git(root, 'worktree', 'remove', '--force', dir);
    } catch {
      // Not registered (the add failed) or already gone: forget it below.
    }
    rmSync(tmp, { recursive: true, force: true });
    try {
      git(root, 'worktree', 'prune');
    } catch {
      // Nothing to prune.
    }
  };
  try {
    git(root, 'worktree', 'add', '--detach', dir, commit);
    linkNodeModules(root, dir);
    for (const name of ['physics', 'symbolic']) {
      if (!existsSync(join(dir, 'packages', name))) continue;
      const got = resolvedPackageDir(dir, name);
      if (got !== realpathSync(join(dir, 'packages', name))) throw new Error(`@fulcrum/${name} in the worktree resolves outside it`);
    }
  } catch (e) {
    remove();
    throw e;
  }
  return { dir, remove };
}

/**
 * Build the worktree's packages/physics and packages/symbolic (those it has) with this repo's
 * TypeScript, `tsc -b`, run in the worktree. Returns the packages built.
 */
export function buildWorktree(root, dir) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const packages = ['packages/physics', 'packages/symbolic'].filter((p) => existsSync(join(dir, p, 'tsconfig.json')));
  if (!packages.includes('packages/physics')) throw new Error('the ref has no packages/physics to build');
  try {
    execFileSync(process.execPath, [tsc, '-b', ...packages], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim().split('\n').slice(0, 20).join('\n');
    throw new Error(`tsc -b ${packages.join(' ')} failed in the worktree:\n${out}`);
  }
  return packages;
}

/**
 * Run `fn({ dir })` with the ref checked out and built in a temporary worktree, and remove the
 * worktree afterwards, whether fn returns or throws, and on SIGINT/SIGTERM (then exit 130/143).
 */
export async function withWorktree(root, commit, fn, { build = true } = {}) {
  const wt = addWorktree(root, commit);
  const onSignal = (sig) => {
    wt.remove();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const packages = build ? buildWorktree(root, wt.dir) : [];
    return await fn({ dir: wt.dir, packages });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    wt.remove();
  }
}

/** The temporary worktrees of --compare that `git worktree list` knows (none after a run). */
export function listedCompareWorktrees(root) {
  return git(root, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ') && l.includes(WORKTREE_PREFIX))
    .map((l) => l.slice('worktree '.length));
}

