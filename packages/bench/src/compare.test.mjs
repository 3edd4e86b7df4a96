// `--compare <ref>`: its options, the temporary worktree (its packages resolve to its own build,
// and it is removed afterwards, also on failure), and one end-to-end run of HEAD against the working tree.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPARE_SCENES, parseOptions } from './options.mjs';
import { SIZES } from './scenes.mjs';
import { WORKTREE_PREFIX, addWorktree, listedCompareWorktrees, repoRoot, resolveRef, resolvedPackageDir, withWorktree } from './worktree.mjs';

const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = repoRoot(PKG_DIR);
const HEAD = resolveRef('HEAD', ROOT);

/** The --compare temporary directories that exist now. */
const compareTmpDirs = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith(WORKTREE_PREFIX));

describe('--compare options', () => {
  const parse = (...argv) => parseOptions(argv, { pkgDir: PKG_DIR, env: {} });

  it('takes a ref; Fulcrum only, scenes A, B, C, D and G by default, the output named later after the ref', () => {
    const o = parse('--compare', '2a522db');
    expect(o.compare).toBe('2a522db');
    expect(o.engines).toEqual(['fulcrum']);
    expect(o.scenes).toEqual(COMPARE_SCENES);
    expect(COMPARE_SCENES).toEqual(['A', 'B', 'C', 'D', 'G']);
    expect(o.out).toBeNull();
    expect(o.repeat).toBe(3);
    expect(o.sizes).toBe(SIZES.full);
  });

  it('with --scenes (case-insensitive ids), --quick, --repeat and --out', () => {
    const o = parse('--compare=main~3', '--quick', '--scenes', 'd,j-user', '--repeat', '2', '--out', 'results/x.json');
    expect(o.compare).toBe('main~3');
    expect(o.scenes).toEqual(['D', 'J-user']);
    expect(o.mode).toBe('quick');
    expect(o.sizes).toBe(SIZES.quick);
    expect(o.repeat).toBe(2);
    expect(o.out).toBe(join(PKG_DIR, 'results', 'x.json'));
  });

  it('rejects --engines, a missing or option-like ref; takes npm_config_compare through the root script', () => {
    expect(() => parse('--compare', 'HEAD', '--engines', 'fulcrum')).toThrow(/Fulcrum only/);
    expect(() => parse('--compare')).toThrow();
    expect(() => parse('--compare=--quick')).toThrow(/needs a git ref/);
    expect(() => parse('--compare', ' ')).toThrow(/needs a git ref/);
    expect(parseOptions(['--quick'], { pkgDir: PKG_DIR, env: { npm_config_compare: 'HEAD~1' } }).compare).toBe('HEAD~1');
    // Without --compare nothing changes.
    const plain = parse('--quick');
    expect(plain.compare).toBeNull();
    expect(plain.out).toBe(join(PKG_DIR, 'results', 'quick.json'));
  });

  it('takes --workers for the working tree (0 without it), a whole number only', () => {
    expect(parse('--compare', 'HEAD').workers).toBe(0);
    expect(parse('--compare', 'HEAD', '--workers', '2').workers).toBe(2);
    expect(parseOptions(['--quick'], { pkgDir: PKG_DIR, env: { npm_config_workers: '1' } }).workers).toBe(1);
    expect(() => parse('--workers=-1')).toThrow(/--workers must be an integer >= 0/);
    expect(() => parse('--workers', '1.5')).toThrow(/--workers/);
  });

  it('resolves a ref to its commit, and names an unknown one', () => {
    expect(HEAD.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(HEAD.commit.startsWith(HEAD.short)).toBe(true);
    expect(() => resolveRef('no-such-ref-xyz', ROOT)).toThrow(/not a commit/);
  });
});

describe('the temporary worktree', () => {
  it("links node_modules so that @fulcrum/* resolve to the worktree's packages and the rest to the repo's; removed afterwards", () => {
    const before = compareTmpDirs();
    const wt = addWorktree(ROOT, HEAD.commit);
    try {
      expect(wt.dir.startsWith(realpathSync(os.tmpdir())) || wt.dir.startsWith(os.tmpdir())).toBe(true);
      expect(listedCompareWorktrees(ROOT).map((p) => realpathSync(p))).toContain(realpathSync(wt.dir));
      for (const name of ['physics', 'symbolic']) {
        const got = resolvedPackageDir(wt.dir, name);
        expect(got).toBe(realpathSync(join(wt.dir, 'packages', name)));
        expect(got).not.toBe(realpathSync(join(ROOT, 'packages', name)));
      }
      // Other dependencies are the repo's installed ones.
      expect(realpathSync(join(wt.dir, 'node_modules', 'typescript'))).toBe(realpathSync(join(ROOT, 'node_modules', 'typescript')));
      // The worktree holds HEAD.
      expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: wt.dir, encoding: 'utf8' }).trim()).toBe(HEAD.commit);
    } finally {
      wt.remove();
    }
    expect(existsSync(wt.dir)).toBe(false);
    expect(listedCompareWorktrees(ROOT)).toEqual([]);
    expect(compareTmpDirs()).toEqual(before);
    // The repo's own links are untouched.
    expect(realpathSync(join(ROOT, 'node_modules', '@fulcrum', 'physics'))).toBe(realpathSync(join(ROOT, 'packages', 'physics')));
  });

  it('is removed when the work inside it fails', async () => {
    const before = compareTmpDirs();
    let seen = null;
    await expect(
      withWorktree(
        ROOT,
        HEAD.commit,
        async ({ dir }) => {
          seen = dir;
          expect(existsSync(join(dir, 'packages', 'physics'))).toBe(true);
          throw new Error('boom');
        },
        { build: false },
      ),
    ).rejects.toThrow('boom');
    expect(seen).not.toBeNull();
    expect(existsSync(seen)).toBe(false);
    expect(listedCompareWorktrees(ROOT)).toEqual([]);
    expect(compareTmpDirs()).toEqual(before);
  });
});

describe('--compare HEAD end to end', () => {
  const tmp = mkdtempSync(join(os.tmpdir(), 'fulcrum-bench-test-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("builds HEAD in a worktree and runs it beside the working tree's build: different directories, the same figures", { timeout: 300_000 }, () => {
    const before = compareTmpDirs();
    const out = join(tmp, 'compare.json');
    const r = spawnSync(process.execPath, ['src/bench.mjs', '--compare', 'HEAD', '--quick', '--scenes', 'D,H', '--repeat', '1', '--out', out], { cwd: PKG_DIR, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.schema).toBe('fulcrum-bench-compare/1');
    expect(doc.builds.ref.commit).toBe(HEAD.commit);
    expect(doc.builds.ref.label).toBe(`fulcrum@${HEAD.short}`);
    expect(doc.config.scenes).toEqual(['D', 'H']);
    // Each build loaded its own directory: the worktree's dist for the ref, the repo's for the current one
    // (the workers report the real path of the physics dist they imported; symbolic's physics is checked to be that one).
    expect(doc.builds.ref.physicsDist).toBe(`<worktree of ${HEAD.short}>/packages/physics/dist`);
    expect(doc.builds.current.physicsDist).toBe('packages/physics/dist');
    for (const res of doc.results) {
      expect(res.ref.status).toBe('ok');
      expect(res.current.status).toBe('ok');
      expect(res.ref.runs[0].physicsDist).toBe(doc.builds.ref.physicsDist);
      expect(res.current.runs[0].physicsDist).toBe(doc.builds.current.physicsDist);
      expect(res.ratio.perRepetition).toHaveLength(1);
      expect(Number.isFinite(res.ratio.median)).toBe(true);
    }
    // The same source gives bitwise the same figures. (Only when the working tree's engine is HEAD's:
    // with uncommitted changes in packages/physics or packages/symbolic the two builds may differ.)
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages/physics', 'packages/symbolic'], { cwd: ROOT, encoding: 'utf8' }).trim();
    for (const res of doc.results) {
      if (dirty) {
        expect(Object.keys(res.ref.quality)).toEqual(Object.keys(res.current.quality));
        continue;
      }
      expect(res.ref.quality).toStrictEqual(res.current.quality);
      expect(res.sameQuality).toBe(true);
    }
    // Cleaned up.
    expect(listedCompareWorktrees(ROOT)).toEqual([]);
    expect(compareTmpDirs()).toEqual(before);
  });
});
