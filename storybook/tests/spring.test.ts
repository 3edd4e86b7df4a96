/**
 * The spring recipe oscillates at the frequency it claims: the frequency measured from the tops
 * of the block's bounce (simulated time) is the damped frequency f·√(1 − ζ²) within 3%, at the
 * story's 1.5 Hz and after a control change to 0.8 Hz.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, updateStoryArgs } from './storybook-page';

const ID = 'recipes-spring--bouncing-block';
const READING = /spring ([\d.]+) Hz, damping ([\d.]+) · damped frequency f·√\(1 − ζ²\) = ([\d.]+) Hz · measured ([\d.]+) Hz over (\d+) periods/;

const story = openedStory(ID);

/** The reading once `periods` periods of a spring of `frequency` Hz have been measured. */
const measured = (frequency: number, periods: number) => (m: RegExpMatchArray) => Number(m[1]) === frequency && Number(m[5]) >= periods;

it('a 1.5 Hz spring bounces at 1.5 Hz (within 3%)', async () => {
  const m = await waitForReadout(story.opened.page, 'spring-readings', READING, measured(1.5, 3));
  expect(Math.abs(Number(m[4]) / Number(m[3]) - 1), m[0]).toBeLessThan(0.03);
  story.opened.assertNoErrors(ID);
});

it('and at 0.8 Hz once the control says so (within 3%)', async () => {
  // The softer spring sags further (m·g/k): the woken block bounces about its new rest point.
  await updateStoryArgs(story.opened, ID, { frequency: 0.8, damping: 0.02 });
  const m = await waitForReadout(story.opened.page, 'spring-readings', READING, measured(0.8, 3), 60_000);
  expect(Math.abs(Number(m[4]) / Number(m[3]) - 1), m[0]).toBeLessThan(0.03);
  story.opened.assertNoErrors(ID);
});
