// Packs the libraries once for both test files: into a fresh folder in the system's temp folder,
// outside the workspace, where the consumer app is created too. The folder is removed at the end
// (set FULCRUM_KEEP_CONSUMER_APP=1 to keep it and look at the app).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractTarball, packLibraries } from './pack.mjs';
import { secondsSince } from './workspace.mjs';

export default async function setup(project) {
  // realpath: the Vite module ids the test compares with this folder are real paths.
  const root = mkdtempSync(join(realpathSync(tmpdir()), 'fulcrum-consumer-'));
  const start = performance.now();
  try {
    const packed = await packLibraries(join(root, 'tarballs'));
    for (const pkg of packed) pkg.extracted = await extractTarball(pkg.tarball, join(root, 'extracted', pkg.filename.replace(/\.tgz$/, '')));
    project.provide('consumerRoot', root);
    project.provide('packed', packed);
    project.provide('packSeconds', secondsSince(start));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return () => {
    if (process.env.FULCRUM_KEEP_CONSUMER_APP) console.log(`consumer test: kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
