// The libraries packed as `npm publish` would pack them, and each tarball read back.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIBRARIES, REPO_ROOT, run } from './workspace.mjs';

/**
 * Packs the three libraries into `destination` with one `npm pack` (their `prepack` builds them
 * first, and is a no-op when turbo already has). Returns, per library in dependency order,
 * `{ name, version, filename, tarball, files }`: `files` is npm's own list of what the tarball holds.
 */
export async function packLibraries(destination) {
  mkdirSync(destination, { recursive: true });
  const workspaces = LIBRARIES.flatMap((lib) => ['--workspace', lib.dir]);
  const stdout = await run('npm', ['pack', ...workspaces, '--pack-destination', destination, '--json'], { cwd: REPO_ROOT });
  const reports = JSON.parse(stdout);
  return LIBRARIES.map(({ name }) => {
    const report = reports.find((r) => r.name === name);
    if (!report) throw new Error(`npm pack reported no tarball for ${name}`);
    return {
      name,
      version: report.version,
      filename: report.filename,
      tarball: join(destination, report.filename),
      files: report.files.map((f) => f.path).sort(),
    };
  });
}

/** Unpacks `tarball` into the folder `into` and returns the package's folder in it (npm's `package/`). */
export async function extractTarball(tarball, into) {
  mkdirSync(into, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', into], { cwd: into });
  return join(into, 'package');
}
