// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('server rendering', () => {
  it('imports without a window and renders a whole scene to a string', async () => {
    expect(typeof window).toBe('undefined');
    const m = await import('./index.js');
    const html = renderToString(
      <m.Physics gravity={[0, -10]} debug dragging>
        <m.Body position={[0, 1]}>
          <m.Circle radius={0.5} />
        </m.Body>
        <m.InstancedBodies instances={[{ position: [0, 0] }]}>
          <m.Box width={1} height={1} />
        </m.InstancedBodies>
      </m.Physics>,
    );
    expect(html).toBe('');
  }, 30_000); // a cold import of the whole package: over 5 s on a loaded 2-core host (CI at 4f74c65)
});
