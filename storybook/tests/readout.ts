/**
 * Reading a story's readout, the line of text under the canvas (`stories/support/readout.tsx`),
 * as a user would: by its data-testid.
 */
import type { Page } from 'playwright-core';

/** The readout's text now. */
export async function readout(page: Page, testId: string): Promise<string> {
  return (await page.textContent(`[data-testid="${testId}"]`)) ?? '';
}

/**
 * Polls the readout until it matches `pattern` and `accept` holds for the match; fails with the
 * last text seen after `timeout` ms.
 */
export async function waitForReadout(
  page: Page,
  testId: string,
  pattern: RegExp,
  accept: (match: RegExpMatchArray) => boolean = () => true,
  timeout = 30_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await readout(page, testId);
    const match = text.match(pattern);
    if (match && accept(match)) return match;
    if (Date.now() > deadline) throw new Error(`the readout "${testId}" did not reach ${pattern} in ${timeout} ms; it reads: "${text}"`);
    await page.waitForTimeout(100);
  }
}
