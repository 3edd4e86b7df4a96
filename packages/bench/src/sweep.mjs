// The sweep's order, and the Fulcrum-only scenes' ratios to their reference scenes.
import { engineById } from './engines/index.mjs';
import { median } from './scenes.mjs';

/**
 * Fulcrum-only scenes and the scene each is measured against (issue targets: E ≤ 1.5× C, F ≤ 2× C,
 * H ≤ 2× G; I has none; issue 20: each of J-user, J-sym ≤ 2× J and K-user, K-sym ≤ 2× K). Their
 * pairs run right after the reference's Fulcrum pair, and the ratio is taken within each
 * repetition: the host drifts over minutes, so two runs seconds apart compare more fairly than two
 * medians taken a minute or more apart.
 */
export const FULCRUM_REFERENCE = { E: 'C', F: 'C', I: 'C', H: 'G', 'J-user': 'J', 'J-sym': 'J', 'K-user': 'K', 'K-sym': 'K' };

/** The sweep's (scene, engine) pairs: scene by scene, each Fulcrum-only scene after its reference's Fulcrum pair. */
export function sweepOrder(scenes, engines) {
  const pairs = [];
  const follows = (ref) => scenes.filter((t) => FULCRUM_REFERENCE[t] === ref);
  for (const s of scenes) {
    if (FULCRUM_REFERENCE[s] && scenes.includes(FULCRUM_REFERENCE[s]) && engines.includes('fulcrum')) continue; // placed after its reference
    for (const e of engines) {
      if (!engineById(e).scenes.includes(s)) continue;
      pairs.push({ scene: s, engine: e });
      if (e === 'fulcrum') for (const t of follows(s)) pairs.push({ scene: t, engine: 'fulcrum' });
    }
  }
  return pairs;
}

/** Per repetition, scene ms ÷ reference ms (both Fulcrum, both ok in that repetition); their median [min–max]. */
export function pairedRatios(results) {
  const out = {};
  const runsOf = (scene) => results.find((r) => r.scene === scene && r.engine === 'fulcrum')?.runs ?? null;
  for (const [scene, ref] of Object.entries(FULCRUM_REFERENCE)) {
    const a = runsOf(scene);
    const b = runsOf(ref);
    if (!a || !b) continue;
    const each = [];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i].status === 'ok' && b[i].status === 'ok') each.push(a[i].medianMs / b[i].medianMs);
    }
    if (!each.length) continue;
    out[scene] = { reference: ref, perRepetition: each, median: median(each), min: Math.min(...each), max: Math.max(...each) };
  }
  return out;
}
