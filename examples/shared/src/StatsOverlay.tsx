/**
 * <StatsOverlay>: the small stats box over the canvas. <StatsProbe> fills in its numbers by
 * writing to the DOM; React renders the box once. `children` adds app-specific lines.
 */
import type { ReactNode, Ref } from 'react';

export interface StatsOverlayProps {
  ref: Ref<HTMLDivElement>;
  children?: ReactNode;
}

export function StatsOverlay({ ref, children }: StatsOverlayProps): ReactNode {
  return (
    <div className="stats" ref={ref} aria-label="Simulation stats">
      <div>
        bodies <span data-stat="bodies">–</span>
      </div>
      <div>
        awake islands <span data-stat="awakeIslands">–</span>
      </div>
      <div>
        step <span data-stat="stepMs">–</span> ms
      </div>
      {children}
    </div>
  );
}
