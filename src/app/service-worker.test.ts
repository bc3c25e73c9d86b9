import { describe, expect, it } from 'vitest';
import { offlineSupportOf } from './service-worker';

const worker = {} as ServiceWorker;
const registered = (workers: { installing?: ServiceWorker; waiting?: ServiceWorker; active?: ServiceWorker }) => ({ installing: null, waiting: null, active: null, ...workers });

describe('offlineSupportOf', () => {
  it('is active whenever a worker controls the tab', () => {
    expect(offlineSupportOf({ api: true, controlled: true, registration: 'pending' })).toBe('active');
    expect(offlineSupportOf({ api: true, controlled: true, registration: registered({ active: worker }) })).toBe('active');
  });

  it('is unavailable when the browser has no service workers or refuses to register one', () => {
    expect(offlineSupportOf({ api: false, controlled: false, registration: 'pending' })).toBe('unavailable');
    expect(offlineSupportOf({ api: true, controlled: false, registration: 'failed' })).toBe('unavailable');
  });

  it('is starting while the first worker registers, installs or waits to activate', () => {
    expect(offlineSupportOf({ api: true, controlled: false, registration: 'pending' })).toBe('starting');
    expect(offlineSupportOf({ api: true, controlled: false, registration: registered({ installing: worker }) })).toBe('starting');
    expect(offlineSupportOf({ api: true, controlled: false, registration: registered({ waiting: worker }) })).toBe('starting');
  });

  it('asks for a reload when a worker is ready but this tab was loaded past it, or its install failed', () => {
    expect(offlineSupportOf({ api: true, controlled: false, registration: registered({ active: worker }) })).toBe('reload');
    expect(offlineSupportOf({ api: true, controlled: false, registration: registered({ active: worker, waiting: worker }) })).toBe('reload');
    expect(offlineSupportOf({ api: true, controlled: false, registration: registered({}) })).toBe('reload');
  });
});
