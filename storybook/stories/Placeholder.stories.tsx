import { Body, Circle, Polygon, Space } from '@fulcrum/physics';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef } from 'react';
import { CanvasDebugDraw } from './canvas-debug-draw';

const PIXELS_PER_METRE = 30;
const TIME_STEP = 1 / 60;

interface SceneProps {
  /** Canvas size in CSS pixels. */
  width: number;
  height: number;
  /** How many falling boxes and circles to drop. */
  boxes: number;
  circles: number;
}

function buildSpace(boxes: number, circles: number): Space {
  const space = new Space({ gravity: [0, -10] });
  space.addBody(new Body({ type: 'static', position: [0, 0], shapes: [Polygon.box(20, 1)] }));
  for (let i = 0; i < boxes; i++) {
    space.addBody(
      new Body({
        type: 'dynamic',
        position: [-4 + (i % 5) * 2, 4 + i * 1.5],
        rotation: 0.3 * (i + 1),
        shapes: [Polygon.box(1, 1, { friction: 0.6 })],
      }),
    );
  }
  for (let i = 0; i < circles; i++) {
    space.addBody(
      new Body({
        position: [-3 + (i % 4) * 2, 8 + i * 1.5],
        shapes: [new Circle({ radius: 0.5, density: 1, restitution: 0.5 })],
      }),
    );
  }
  return space;
}

/** Steps a Space once per animation frame and draws it through a Canvas2D `DebugDraw` sink. */
function PlaceholderScene({ width, height, boxes, circles }: SceneProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;

    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);

    const space = buildSpace(boxes, circles);
    const sink = new CanvasDebugDraw(ctx, {
      scale: PIXELS_PER_METRE,
      originX: width / 2,
      originY: height - 40,
    });

    let frame = 0;
    const tick = () => {
      space.step(TIME_STEP);
      ctx.fillStyle = '#1b1d23';
      ctx.fillRect(0, 0, width, height);
      space.debugDraw(sink, { shapes: true });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [width, height, boxes, circles]);

  return (
    <canvas
      ref={canvasRef}
      data-testid="fulcrum-canvas"
      style={{ width, height, display: 'block', borderRadius: 4 }}
    />
  );
}

const meta = {
  title: 'Engine',
  component: PlaceholderScene,
  args: { width: 800, height: 500, boxes: 6, circles: 4 },
  argTypes: {
    boxes: { control: { type: 'range', min: 0, max: 30, step: 1 } },
    circles: { control: { type: 'range', min: 0, max: 30, step: 1 } },
  },
} satisfies Meta<typeof PlaceholderScene>;

export default meta;

type Story = StoryObj<typeof meta>;

/** Engine/Placeholder: a static ground, a few falling boxes and circles. */
export const Placeholder: Story = {};
