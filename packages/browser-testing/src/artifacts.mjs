import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where screenshots go: $FULCRUM_TEST_ARTIFACTS, or `test-artifacts/` in the current working
 * directory (the package whose tests run). `test-artifacts/` is git-ignored everywhere.
 */
export function artifactsDir() {
  return resolve(process.env.FULCRUM_TEST_ARTIFACTS ?? join(process.cwd(), 'test-artifacts'));
}

/** Writes `bytes` to the artifacts folder under a file-system-safe version of `name`; returns the path. */
export function saveArtifact(name, bytes) {
  const dir = artifactsDir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name.replace(/[^\w.-]+/g, '_'));
  writeFileSync(path, bytes);
  return path;
}
