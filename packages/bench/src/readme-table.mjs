#!/usr/bin/env node
// The figures section of README.md, generated from a results JSON (results/latest.json by default).
// Usage: node src/readme-table.mjs [--results FILE] [--browser FILE] [--readme FILE] [--check]
//   writes the tables between the README's markers (figures:begin/end from results/latest.json, and
//   browser-figures:begin/end from results/browser.json); --check only reports whether they are current.
// Everything (scenes, engines, ratios) is read from the JSON: nothing here names a scene or an engine
// other than Fulcrum, which the peers are compared with.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const BEGIN = '<!-- figures:begin -->';
export const END = '<!-- figures:end -->';
export const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_RESULTS = join(PKG_DIR, 'results', 'latest.json');
export const DEFAULT_README = join(PKG_DIR, 'README.md');
export const DEFAULT_BROWSER_RESULTS = join(PKG_DIR, 'results', 'browser.json');
export const BROWSER_BEGIN = '<!-- browser-figures:begin -->';
export const BROWSER_END = '<!-- browser-figures:end -->';

/** The engine the others are compared with. */
const REFERENCE_ENGINE = 'fulcrum';

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
export const fmtMs = (x) => (!finite(x) ? '–' : x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
const fmtLen = (x) => (!finite(x) ? 'NaN' : Math.abs(x) < 1e-3 && x !== 0 ? x.toExponential(1) : x.toFixed(Math.abs(x) < 0.1 ? 4 : 3));
const fmtSigned = (x) => (!finite(x) ? 'NaN' : `${x >= 0 ? '+' : '−'}${fmtLen(Math.abs(x))}`);
const fmtRatio = (x) => (!finite(x) ? '–' : `${x.toFixed(2)}×`);
const cellText = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');

function mdTable(header, rows, align) {
  const line = (r) => `| ${r.map(cellText).join(' | ')} |`;
  return [line(header), `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Keys in `preferred` order first (those present), then the rest in first-seen order. */
function ordered(preferred, seen) {
  const out = preferred.filter((k) => seen.includes(k));
  for (const k of seen) if (!out.includes(k)) out.push(k);
  return out;
}

function timeCell(r) {
  if (!r) return '';
  if (r.status === 'pending') return 'pending';
  if (r.status !== 'ok') return 'failed';
  if ((r.runs?.length ?? 1) < 2 || !finite(r.minMs) || !finite(r.maxMs)) return fmtMs(r.medianMs);
  return `${fmtMs(r.medianMs)} [${fmtMs(r.minMs)}–${fmtMs(r.maxMs)}]`;
}

function qualityCell(r) {
  if (!r) return '';
  if (r.status !== 'ok') return timeCell(r);
  const q = r.quality;
  if (!q) return '–';
  const parts = [];
  if ('worstSeparation' in q) parts.push(`${fmtLen(q.worstSeparation)} m`);
  if ('topDy' in q) parts.push(`Δy ${fmtSigned(q.topDy)}${'stands' in q ? (q.stands ? ', stands' : ', falls') : ''}`);
  // Many pyramids: how many stand, and the worst top-box displacement over all of them.
  if ('standing' in q) parts.push(`${q.standing}/${q.pyramids ?? '?'} stand`);
  if ('worstTopDy' in q) parts.push(`worst Δy ${fmtSigned(q.worstTopDy)}`);
  if ('worstTopDx' in q) parts.push(`worst Δx ${fmtSigned(q.worstTopDx)}`);
  // A count of bodies that left their container, and their mean speed (m/s) at the end.
  if ('escaped' in q) parts.push(`${finite(q.escaped) ? q.escaped : 'NaN'} escaped`);
  if ('meanSpeed' in q) parts.push(`mean speed ${!finite(q.meanSpeed) ? 'NaN' : q.meanSpeed.toFixed(q.meanSpeed < 10 ? 2 : 1)} m/s`);
  for (const [k, v] of Object.entries(q)) {
    if (['worstSeparation', 'topDy', 'topDx', 'stands', 'escaped', 'meanSpeed', 'standing', 'pyramids', 'worstTopDy', 'worstTopDx'].includes(k)) continue;
    parts.push(`${k} ${typeof v === 'number' ? fmtLen(v) : String(v)}`);
  }
  return parts.join('; ') || '–';
}

function shortCommit(git) {
  if (!git?.commit) return 'unknown';
  return `${git.commit.slice(0, 7)}${git.physicsDirty ? ' (packages/physics had uncommitted changes)' : ''}`;
}

function runLine(doc) {
  const p = doc.protocol ?? {};
  const m = doc.machine ?? {};
  const date = typeof doc.date === 'string' ? doc.date.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC') : 'unknown';
  const reps = p.repetitions;
  const run = [
    `${doc.mode ?? 'unknown'} run of ${date}`,
    `git ${shortCommit(doc.git)}`,
    reps != null ? `${reps} repetition${reps === 1 ? '' : 's'}` : null,
    p.warmupSteps != null && p.timedSteps != null ? `${p.warmupSteps} warm-up and ${p.timedSteps} timed steps per run` : null,
    finite(doc.durationSec) ? `${Math.round(doc.durationSec / 60)} min` : null,
  ].filter(Boolean);
  const machine = [
    m.cpu,
    m.cores != null ? `${m.cores} cores` : null,
    m.memGiB != null ? `${m.memGiB} GiB` : null,
    m.node ? `Node ${m.node}` : null,
    m.v8 ? `V8 ${m.v8}` : null,
    [m.platform, m.arch].filter(Boolean).join(' ') || null,
  ].filter(Boolean);
  return [`**Run:** ${run.join(', ')}.`, `**Machine:** ${machine.join(', ')}.`];
}

/** The markdown between the markers (without them), from a results document. */
export function renderFigures(doc) {
  const results = doc.results ?? [];
  const sceneIds = ordered(doc.config?.scenes ?? Object.keys(doc.scenes ?? {}), [...new Set(results.map((r) => r.scene))]);
  const engineIds = ordered(doc.config?.engines ?? Object.keys(doc.engines ?? {}), [...new Set(results.map((r) => r.engine))]);
  const label = (e) => doc.engines?.[e]?.label ?? e;
  const title = (s) => doc.scenes?.[s]?.title ?? '';
  const sceneCell = (s) => (title(s) ? `${s}: ${title(s)}` : s);
  const byKey = new Map(results.map((r) => [`${r.scene}/${r.engine}`, r]));
  const get = (s, e) => byKey.get(`${s}/${e}`);
  const enginesOf = (s) => engineIds.filter((e) => get(s, e));
  // Scenes that more than one engine ran are compared across engines; the rest are Fulcrum's own.
  const shared = sceneIds.filter((s) => enginesOf(s).length > 1);
  const own = sceneIds.filter((s) => enginesOf(s).length === 1);
  const sharedEngines = engineIds.filter((e) => shared.some((s) => get(s, e)));

  const out = [];
  out.push('<!-- Generated by `npm run readme-table -w @fulcrum/bench` from results/latest.json. Do not edit by hand: rerun it. -->');
  out.push('');
  out.push(...runLine(doc).flatMap((l) => [l, '']));
  const versions = engineIds.map((e) => `${label(e)} ${doc.engines?.[e]?.version ?? '?'}`);
  out.push(`**Engines:** ${versions.join(', ')}.`);
  out.push('');

  if (shared.length) {
    out.push('#### ms/step (median of the repetition medians [min–max of them])');
    out.push('');
    out.push(mdTable(['scene', ...sharedEngines.map(label)], shared.map((s) => [sceneCell(s), ...sharedEngines.map((e) => timeCell(get(s, e)))]), ['l', ...sharedEngines.map(() => 'r')]));
    out.push('');

    const ratios = doc.ratios ?? {};
    const peers = ordered(
      sharedEngines.filter((e) => e !== REFERENCE_ENGINE),
      [...new Set(Object.values(ratios).flatMap((m) => Object.keys(m ?? {})))],
    );
    const ratioScenes = ordered(shared, Object.keys(ratios));
    if (peers.length && ratioScenes.length) {
      out.push(`#### ${label(REFERENCE_ENGINE)} against each peer (peer ms ÷ ${label(REFERENCE_ENGINE)} ms: above 1, ${label(REFERENCE_ENGINE)} is faster)`);
      out.push('');
      const rows = ratioScenes.map((s) => {
        const m = ratios[s] ?? {};
        const have = peers.filter((p) => finite(m[p]));
        const fastest = have.length ? have.reduce((a, b) => (m[b] < m[a] ? b : a)) : null;
        return [s, ...peers.map((p) => fmtRatio(m[p])), fastest ? `${fmtRatio(m[fastest])} (${label(fastest)})` : '–'];
      });
      out.push(mdTable(['scene', ...peers.map(label), 'fastest peer'], rows, ['l', ...peers.map(() => 'r'), 'r']));
      out.push('');
    }

    out.push('#### Quality after all steps');
    out.push('');
    out.push(mdTable(['scene', ...sharedEngines.map(label)], shared.map((s) => [s, ...sharedEngines.map((e) => qualityCell(get(s, e)))]), ['l', ...sharedEngines.map(() => 'r')]));
    out.push('');
  }

  if (own.length) {
    out.push('#### Scenes one engine runs');
    out.push('');
    const rows = own.map((s) => {
      const e = enginesOf(s)[0];
      return [sceneCell(s), label(e), timeCell(get(s, e)), qualityCell(get(s, e))];
    });
    out.push(mdTable(['scene', 'engine', 'ms/step', 'quality'], rows, ['l', 'l', 'r', 'r']));
    out.push('');
  }

  const fr = doc.fulcrumRatios ?? {};
  const frKeys = ordered(sceneIds, Object.keys(fr));
  if (frKeys.length) {
    out.push(`#### ${label(REFERENCE_ENGINE)}'s ratios within each repetition (scene ms ÷ reference ms, median [min–max] over the repetitions)`);
    out.push('');
    const rows = frKeys.map((k) => {
      const r = fr[k] ?? {};
      const num = r.scene ?? k;
      const ref = r.reference ?? '?';
      const each = Array.isArray(r.perRepetition) ? r.perRepetition.map((x) => (finite(x) ? x.toFixed(2) : '–')).join(', ') : '–';
      const range = finite(r.min) && finite(r.max) ? ` [${r.min.toFixed(2)}–${r.max.toFixed(2)}]` : '';
      return [`${num} ÷ ${ref}`, `${fmtRatio(r.median)}${range}`, each];
    });
    out.push(mdTable(['ratio', 'median [min–max]', 'each repetition'], rows, ['l', 'r', 'r']));
    out.push('');
  }

  const notOk = results.filter((r) => r.status !== 'ok');
  if (notOk.length) {
    out.push('**Pairs that did not run:**');
    out.push('');
    for (const r of notOk) out.push(`- ${r.scene} ${label(r.engine)}: ${r.status}${r.message ? `, ${String(r.message).split('\n')[0]}` : ''}`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** The text between the markers, or null when the README has no (well-formed) markers. */
export function extractFigures(readme, begin = BEGIN, end = END) {
  const a = readme.indexOf(begin);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) return null;
  return readme.slice(a + begin.length, b).trim();
}

/** The README with the markers' content replaced. */
export function replaceFigures(readme, figures, begin = BEGIN, end = END) {
  const a = readme.indexOf(begin);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error(`README has no ${begin} … ${end} section`);
  return `${readme.slice(0, a + begin.length)}\n${figures}\n${readme.slice(b)}`;
}

/** The browser run's figures (results/browser.json): every { median, p10, p90 } entry, in the JSON's order. */
export function renderBrowserFigures(doc) {
  const out = [];
  out.push('<!-- Generated by `npm run readme-table -w @fulcrum/bench` from results/browser.json. Do not edit by hand: rerun it. -->');
  out.push('');
  const date = typeof doc.date === 'string' ? doc.date.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC') : 'unknown';
  const browser = /HeadlessChrome\/[\d.]+/.exec(doc.browser ?? '')?.[0] ?? doc.browser ?? 'unknown';
  out.push(`**Run:** ${date}, ${browser}, ${doc.cpus ?? '?'} cores; story \`${doc.story ?? '?'}\`, ${doc.bodies ?? '?'} bodies, ${doc.frames ?? '?'} frames after ${doc.warmupFrames ?? '?'} warm-up frames.`);
  out.push('');
  const words = (k) => {
    const w = k.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([a-z])(\d)/g, '$1 $2').toLowerCase().split(' ');
    return w.includes('ms') ? `${w.filter((x) => x !== 'ms').join(' ')} (ms)` : w.join(' ');
  };
  const fmt = (x) => (!finite(x) ? '–' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
  const dists = Object.entries(doc).filter(([, v]) => v && typeof v === 'object' && 'median' in v && 'p10' in v && 'p90' in v);
  if (dists.length) {
    out.push(mdTable(['per frame or step', 'median', 'p10', 'p90'], dists.map(([k, v]) => [words(k), fmt(v.median), fmt(v.p10), fmt(v.p90)]), ['l', 'r', 'r', 'r']));
    out.push('');
  }
  const others = Object.entries(doc).filter(([k, v]) => !['date', 'browser', 'cpus', 'story', 'bodies', 'frames', 'warmupFrames'].includes(k) && !dists.some(([d]) => d === k));
  const value = (v) => (v && typeof v === 'object' ? Object.entries(v).map(([a, b]) => `${words(a)} ${typeof b === 'number' ? fmt(b) : b}`).join(', ') : typeof v === 'number' && !Number.isInteger(v) ? fmt(v) : String(v));
  for (const [k, v] of others) out.push(`- ${words(k)}: ${value(v)}`);
  return out.join('\n').trimEnd();
}

function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      results: { type: 'string' },
      browser: { type: 'string' },
      readme: { type: 'string' },
      check: { type: 'boolean', default: false },
    },
  });
  const resultsPath = values.results ? resolve(values.results) : DEFAULT_RESULTS;
  const browserPath = values.browser ? resolve(values.browser) : DEFAULT_BROWSER_RESULTS;
  const readmePath = values.readme ? resolve(values.readme) : DEFAULT_README;
  const readme = readFileSync(readmePath, 'utf8');
  let next = replaceFigures(readme, renderFigures(JSON.parse(readFileSync(resultsPath, 'utf8'))));
  if (readme.includes(BROWSER_BEGIN)) {
    next = replaceFigures(next, renderBrowserFigures(JSON.parse(readFileSync(browserPath, 'utf8'))), BROWSER_BEGIN, BROWSER_END);
  }
  if (values.check) {
    if (next !== readme) {
      console.error('README.md figures differ from the results: run `npm run readme-table -w @fulcrum/bench`');
      process.exit(1);
    }
    console.log('README.md figures are current');
    return;
  }
  if (next !== readme) writeFileSync(readmePath, next);
  console.log(next === readme ? 'README.md figures already current' : 'README.md figures written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
