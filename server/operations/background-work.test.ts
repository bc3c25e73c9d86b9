import { expect, it } from 'vitest';
import { BackgroundWork } from './background-work';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('drains once the work started, and the work it started in turn, has ended', async () => {
  const background = new BackgroundWork();
  const ended: string[] = [];
  background.start(
    later(10).then(() => {
      ended.push('first');
      background.start(later(20).then(() => ended.push('started by the first')), () => {});
    }),
    () => {},
  );
  await background.drain();
  expect(ended).toEqual(['first', 'started by the first']);
});

it('hands a failure to its reporter, and drains all the same', async () => {
  const background = new BackgroundWork();
  const reported: unknown[] = [];
  const failure = new Error('the relay is down');
  background.start(later(5).then(() => Promise.reject(failure)), (error) => reported.push(error));
  background.start(later(15), () => reported.push('not a failure'));
  await background.drain();
  expect(reported).toEqual([failure]);
});
