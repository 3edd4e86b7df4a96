/** The toolbar's "awake n / m" readout, fed by the probe's sleep counts (polled, not per frame). */
import { useEffect, useState } from 'react';

export function SleepStatus() {
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setInterval(() => {
      const probe = globalThis.__fulcrum;
      if (probe && typeof probe.awakeBodies === 'number') {
        setText(probe.awakeBodies === 0 ? `at rest (${probe.bodies} bodies)` : `awake ${probe.awakeBodies} / ${probe.bodies} bodies`);
      }
    }, 250);
    return () => clearInterval(timer);
  }, []);
  return <span data-testid="sleep-status">{text}</span>;
}
