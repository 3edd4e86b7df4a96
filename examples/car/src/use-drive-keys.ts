/**
 * Keyboard driving: ←/→ or A/D set the throttle, space brakes. React state changes only when a
 * key goes down or up, never per frame; the joints' props follow it.
 */
import { useEffect, useState } from 'react';
import type { DriveInput } from './Car.js';

const LEFT = new Set(['ArrowLeft', 'KeyA']);
const RIGHT = new Set(['ArrowRight', 'KeyD']);
const BRAKE = 'Space';

export function useDriveKeys(): DriveInput {
  const [held, setHeld] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    const isDriveKey = (code: string) => LEFT.has(code) || RIGHT.has(code) || code === BRAKE;
    const down = (e: KeyboardEvent) => {
      if (!isDriveKey(e.code)) return;
      e.preventDefault(); // space would scroll or press the focused button
      if (!e.repeat) setHeld((h) => new Set(h).add(e.code));
    };
    const up = (e: KeyboardEvent) => {
      if (!isDriveKey(e.code)) return;
      setHeld((h) => {
        const next = new Set(h);
        next.delete(e.code);
        return next;
      });
    };
    // Keys held while the window loses focus never see their keyup.
    const clear = () => setHeld(new Set());
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', clear);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', clear);
    };
  }, []);
  const any = (keys: ReadonlySet<string>) => [...keys].some((k) => held.has(k));
  const left = any(LEFT);
  const right = any(RIGHT);
  return { throttle: left === right ? 0 : right ? 1 : -1, brake: held.has(BRAKE) };
}
