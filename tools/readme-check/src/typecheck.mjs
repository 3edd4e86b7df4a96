// Type-checking README blocks: each block becomes a module of its own in a scratch folder inside this
// package (so that `@fulcrum/*` and the other dependencies resolve through the repository's
// node_modules), compiled with the repository's base options and the `@fulcrum/source` condition,
// so the workspace packages are read from their TypeScript sources and nothing needs building.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { REPO_ROOT } from './readme-blocks.mjs';

const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The compiler options: the repository's tsconfig.json, then what checking loose modules needs. */
export function compilerOptions() {
  const configPath = join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, configPath);
  return {
    ...parsed.options,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@fulcrum/source'],
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    noEmit: true,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    composite: false,
    incremental: false,
    skipLibCheck: true,
  };
}

/** A module file name for a block: the document's path and the block's index, readable in errors. */
export const blockFileName = (block) => `${block.doc.replace(/[^A-Za-z0-9]+/g, '_')}__${block.index}.${block.ext}`;

/**
 * Type-checks the blocks in one program. Returns one entry per block: { block, errors }, where each
 * error is "doc:line:column message" with the line in the markdown document.
 */
export function typecheckBlocks(blocks) {
  const dir = join(PKG_DIR, `.blocks-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const files = blocks.map((b) => {
      const file = join(dir, blockFileName(b));
      // `export {}` makes a block without imports or exports a module too, so blocks never share a scope.
      writeFileSync(file, `${b.code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram({ rootNames: files, options: compilerOptions() });
    return blocks.map((block, i) => {
      const sf = program.getSourceFile(files[i]);
      const diags = sf ? [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)] : [];
      const errors = diags
        .filter((d) => d.category === ts.DiagnosticCategory.Error)
        .map((d) => {
          const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
          if (d.file && d.start !== undefined) {
            const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
            return `${block.doc}:${block.line + line}:${character + 1} TS${d.code}: ${msg}`;
          }
          return `${block.doc}:${block.line} TS${d.code}: ${msg}`;
        });
      return { block, errors };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
