/**
 * A joint's derivation, read from its source file's opening comment. The comment holds it twice:
 * in Unicode for code readers, and after a line `Math (KaTeX):` as LaTeX for this site, one
 * quantity per line:
 *
 *   Math (KaTeX):
 *     where: p_i = c_i + r_i
 *     C: C = p_2 - p_1
 *     J: J = \begin{bmatrix} -1 & 0 \\
 *            0 & -1 \end{bmatrix}
 *
 * A line indented by two spaces starts a quantity (its key, a colon, the formula); a line indented
 * further continues the formula above it. The block runs to the end of the comment. The docs
 * pages render it (Derivation.tsx), so the site shows what the source says, never a copy of it.
 */

/** A joint's derivation: the quantities in their order in the comment. */
export interface JointMath {
  rows: MathRow[];
  /** The opening comment without its `*` margin, Unicode derivation included (the whole text). */
  comment: string;
}

export interface MathRow {
  /** `where` (definitions), `C`, `V`, `J`, `K`, `Jᵀλ`, or a joint's own (e.g. `limits`). */
  key: string;
  /** The formula, in LaTeX. */
  latex: string;
}

/** The quantities every joint page shows, in this order. */
export const QUANTITIES = ['C', 'V', 'J', 'K', 'Jᵀλ'] as const;

const MARKER = 'Math (KaTeX):';

/** The opening `/** … *\/` comment of a source file, without the comment's `*` margin. */
export function openingComment(source: string, file: string): string {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match) throw new Error(`${file}: no opening /** … */ comment`);
  return match[1]!
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/**
 * The derivation in `source`'s opening comment. Throws, naming the file, when the comment has no
 * `Math (KaTeX):` block, a line of it is neither a quantity nor a continuation, or one of C, V,
 * J, K and Jᵀλ is missing: a page without its mathematics is a bug, not an empty table.
 */
export function jointMath(source: string, file: string): JointMath {
  const comment = openingComment(source, file);
  const lines = comment.split('\n');
  const start = lines.findIndex((line) => line.trim() === MARKER);
  if (start < 0) throw new Error(`${file}: the opening comment has no "${MARKER}" block`);
  const rows: MathRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    const quantity = /^ {2}(\S+):\s+(.*)$/.exec(line);
    if (quantity) {
      rows.push({ key: quantity[1]!, latex: quantity[2]!.trim() });
      continue;
    }
    const last = rows[rows.length - 1];
    if (!/^ {3,}\S/.test(line) || !last) throw new Error(`${file}: a "${MARKER}" line is neither "  key: formula" nor a continuation: "${line}"`);
    last.latex += `\n${line.trim()}`;
  }
  const missing = QUANTITIES.filter((q) => !rows.some((r) => r.key === q));
  if (missing.length > 0) throw new Error(`${file}: the "${MARKER}" block has no ${missing.join(', ')}`);
  return { rows, comment };
}

/**
 * The Unicode part of the comment: everything before the paragraph of the `Math (KaTeX):` block
 * (which may open with a sentence introducing the LaTeX).
 */
export function unicodeDerivation(math: JointMath): string {
  const at = math.comment.indexOf(MARKER);
  if (at < 0) return math.comment;
  const paragraph = math.comment.lastIndexOf('\n\n', at);
  return math.comment.slice(0, paragraph < 0 ? at : paragraph).trimEnd();
}
