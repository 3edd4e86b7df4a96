/**
 * Every docs page of the built Storybook, in headless Chromium (iframe.html?viewMode=docs), as a
 * reader sees it:
 * - it renders (a title, content) with no console error or uncaught exception, and a live demo
 *   on it draws;
 * - a joint page shows C, V, J, K and Jᵀλ as KaTeX output (read from the engine's source);
 * - a component page has a props table whose rows carry the TSDoc descriptions, including a
 *   known one;
 * - Getting started has its code blocks: the install line, the first scene, the camera.
 * The pages come from the built index.json, so a new page is tested automatically.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canvasStats, launchBrowser, openPage, serveStatic, type OpenedPage, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUANTITIES } from '../docs/support/joint-math';
import { listEntries, STATIC_DIR } from './storybook-page';

const pages = listEntries('docs');
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  server = await serveStatic(STATIC_DIR);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Per component page: a prop and words of its TSDoc that the props table must show. */
const KNOWN_DESCRIPTIONS: Record<string, [prop: string, words: string]> = {
  'components-physics--docs': ['gravity', 'm/s², y up'],
  'components-body--docs': ['force', 'Persistent force applied at the centre of mass'],
  'components-shapes-box--docs': ['width', 'Full width, metres'],
  'components-shapes-circle--docs': ['radius', 'Metres, > 0'],
  'components-shapes-polygon--docs': ['vertices', 'any winding'],
  'components-shapes-capsule--docs': ['offset', 'Body-local offset of the shape'],
  'components-shapes-segment--docs': ['sensor', 'Reports contacts without colliding'],
  'components-joints-pivotjoint--docs': ['anchor1', 'Anchor on body1'],
  'components-joints-weldjoint--docs': ['phase', 'Target relative angle'],
  'components-joints-anglejoint--docs': ['ratio', 'The limits apply to ratio'],
  'components-joints-distancejoint--docs': ['jointMin', 'Least distance between the anchors'],
  'components-joints-linejoint--docs': ['direction', 'Direction of the line'],
  'components-joints-motorjoint--docs': ['rate', 'Target value of ratio'],
  'components-joints-pulleyjoint--docs': ['body3', 'Body of the second segment'],
  'components-joints-userconstraint--docs': ['stiff', 'Rigid'],
  'components-joints-symbolicconstraint--docs': ['source', 'The constraint in the constraint language'],
  'components-instancedbodies--docs': ['linearDrag', 'Linear drag'],
  'components-debuglines--docs': ['options', 'Layers to draw'],
  'components-pointerdrag--docs': ['frequency', 'Spring frequency of the drag joint'],
};

const JOINT_PAGES = ['pivot', 'weld', 'angle', 'distance', 'line', 'motor', 'pulley', 'userconstraint', 'symbolicconstraint'].map((j) => `joints-${j}--docs`);

it('finds Getting started, a page per component, per joint and per recipe in index.json', () => {
  const ids = pages.map((p) => p.id);
  expect(ids).toEqual(expect.arrayContaining(['getting-started--docs', ...Object.keys(KNOWN_DESCRIPTIONS), ...JOINT_PAGES]));
  expect(ids.filter((id) => id.startsWith('recipes-')).length).toBeGreaterThanOrEqual(10);
});

it('every link between pages (?path=…) points at a page or story that exists', () => {
  const docsDir = join(import.meta.dirname, '..', 'docs');
  const entries = new Map([...pages, ...listEntries('story')].map((e) => [e.id, e]));
  const broken: string[] = [];
  for (const file of readdirSync(docsDir, { recursive: true }).map(String).filter((f) => f.endsWith('.mdx'))) {
    for (const [link, kind, id] of readFileSync(join(docsDir, file), 'utf8').matchAll(/\?path=\/(docs|story)\/([a-z0-9-]+--[a-z0-9-]+)/g)) {
      const entry = entries.get(id!);
      if (!entry || (kind === 'docs') !== pages.includes(entry)) broken.push(`${file}: ${link}`);
    }
  }
  expect(broken).toEqual([]);
});

describe.each(pages)('$title', (entry) => {
  let opened: OpenedPage;

  beforeAll(async () => {
    opened = await openPage(browser, `${server.url}/iframe.html?id=${encodeURIComponent(entry.id)}&viewMode=docs`);
    // A page that fails to render never gets its title: the tests then say why (its errors).
    await opened.page.waitForSelector('#storybook-docs h1', { timeout: 30_000 }).catch(() => undefined);
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('renders, and its live demos draw, with no console errors', async () => {
    const page = opened.page;
    opened.assertNoErrors(entry.id);
    expect((await page.textContent('#storybook-docs h1'))?.trim(), 'a title').toBeTruthy();
    expect((await page.textContent('#storybook-docs'))!.length, 'some content').toBeGreaterThan(200);
    // A demo is a story in a StoryFrame: the first one's canvas draws.
    const demo = page.locator('#storybook-docs .docs-story canvas');
    if ((await demo.count()) > 0) {
      await demo.first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(1500);
      // Again: code highlighting and fonts may have moved the page meanwhile.
      await demo.first().scrollIntoViewIfNeeded();
      const stats = await canvasStats(page, '#storybook-docs .docs-story canvas', { artifact: `${entry.id}-demo.png` });
      expect(stats.differing, 'pixels off the background in the first demo').toBeGreaterThan(500);
    }
    opened.assertNoErrors(entry.id);
  });

  it.runIf(JOINT_PAGES.includes(entry.id))('shows C, V, J, K and Jᵀλ as KaTeX, from the engine source', async () => {
    for (const quantity of QUANTITIES) {
      const rendered = opened.page.locator(`#storybook-docs tr[data-quantity="${quantity}"] td .katex`);
      expect(await rendered.count(), `KaTeX output for ${quantity}`).toBeGreaterThan(0);
      expect((await rendered.first().textContent())!.length, `${quantity} is a formula, not an empty box`).toBeGreaterThan(2);
    }
    // …and the Unicode derivation the formulas were checked against, from the same comment.
    expect(await opened.page.textContent('#storybook-docs .fulcrum-derivation-unicode')).toContain('Jᵀλ');
    opened.assertNoErrors(entry.id);
  });

  it.runIf(entry.id in KNOWN_DESCRIPTIONS)('has a props table whose rows carry their TSDoc descriptions', async () => {
    const rows = await propsRows(opened.page);
    // Not every prop has TSDoc (event handlers, some engine options): the table must show the ones that do.
    expect(rows.filter((r) => r.description.length > 0).length, 'rows with a description').toBeGreaterThanOrEqual(Math.min(3, rows.length));
    const [prop, words] = KNOWN_DESCRIPTIONS[entry.id]!;
    const row = rows.find((r) => r.name === prop);
    expect(row, `a row for ${prop}`).toBeTruthy();
    expect(row!.description, `${prop}'s TSDoc`).not.toBe('');
    expect(row!.description).toContain(words);
    opened.assertNoErrors(entry.id);
  });

  it.runIf(entry.id === 'getting-started--docs')('has its code blocks: install, a first scene, the camera', async () => {
    const blocks = await opened.page.locator('#storybook-docs .docblock-source').allTextContents();
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => b.includes('npm install @fulcrum/react @fulcrum/physics @react-three/fiber three react react-dom'))).toBe(true);
    expect(blocks.some((b) => b.includes('<Physics') && b.includes('<PivotJoint') && b.includes('createRoot'))).toBe(true);
    expect(blocks.some((b) => b.includes('<Canvas orthographic camera={{ zoom: 40, position: [0, 0, 100] }}>'))).toBe(true);
    // The copy buttons make them copyable.
    expect(await opened.page.locator('#storybook-docs .docblock-source button:has-text("Copy")').count()).toBeGreaterThanOrEqual(3);
    opened.assertNoErrors(entry.id);
  });
});

interface PropsRow {
  name: string;
  /** The TSDoc text ('' when the prop has none): the description cell without its type. */
  description: string;
}

/**
 * The rows of the page's props table(s). In a row's second cell a described prop has two blocks,
 * the description and the type; an undescribed one only the type.
 */
async function propsRows(page: Page): Promise<PropsRow[]> {
  await page.waitForSelector('#storybook-docs .docblock-argstable tbody tr', { timeout: 30_000 });
  return page.$$eval('#storybook-docs .docblock-argstable tbody tr', (trs) =>
    trs
      .filter((tr) => tr.children.length >= 3)
      .map((tr) => {
        const cell = tr.children[1]!;
        const blocks = [...cell.children];
        // The name cell holds the name, then a "*" for a required prop.
        const name = tr.children[0]!.querySelector('span')?.textContent ?? tr.children[0]!.textContent!;
        return { name: name.trim(), description: blocks.length >= 2 ? blocks[0]!.textContent!.trim() : '' };
      }),
  );
}
