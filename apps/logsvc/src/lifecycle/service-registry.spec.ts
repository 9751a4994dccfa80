import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { LifecycleService } from './lifecycle-service';
import { readiness } from './readiness';
import { ServiceFailedError, ServiceRegistry } from './service-registry';

const quiet = pino({ level: 'silent' });

function recorder(
  events: string[],
  name: string,
  extra: Partial<LifecycleService> = {},
): LifecycleService {
  return {
    serviceName: name,
    starting: async () => void events.push(`start ${name}`),
    stopping: async () => void events.push(`stop ${name}`),
    ...extra,
  };
}

describe('ServiceRegistry', () => {
  it('starts in the given order where no dependency decides, whatever the registration order', async () => {
    const events: string[] = [];
    const sut = new ServiceRegistry({ b: [], a: [], x: [] }, quiet, ['a', 'b']);
    sut.register(recorder(events, 'x'));
    sut.register(recorder(events, 'b'));
    sut.register(recorder(events, 'a'));
    await sut.startAll();
    expect(sut.states().map((s) => s.name)).toEqual(['a', 'b', 'x']);
    await sut.stopAll();
    expect(events).toEqual(['start a', 'start b', 'start x', 'stop x', 'stop b', 'stop a']);
  });

  it('starts dependencies first and stops in reverse order', async () => {
    const events: string[] = [];
    const sut = new ServiceRegistry({ a: ['b'], b: ['c'], c: [] }, quiet);
    sut.register(recorder(events, 'a'));
    sut.register(recorder(events, 'b'));
    sut.register(recorder(events, 'c'));
    await sut.startAll();
    expect(sut.states()).toEqual([
      { name: 'c', state: 'Running' },
      { name: 'b', state: 'Running' },
      { name: 'a', state: 'Running' },
    ]);
    expect(readiness(sut)).toEqual({ ready: true, message: 'ready\n' });
    await sut.stopAll();
    expect(events).toEqual(['start c', 'start b', 'start a', 'stop a', 'stop b', 'stop c']);
    expect(sut.states().every((s) => s.state === 'Terminated')).toBe(true);
    expect(readiness(sut).message).toBe('Application is stopping\n');
  });

  it('marks a service whose starting throws as Failed and reports it', async () => {
    const sut = new ServiceRegistry({}, quiet);
    sut.register({ serviceName: 'ok' });
    sut.register({
      serviceName: 'broken',
      starting: async () => {
        throw new Error('no disk');
      },
    });
    sut.register({ serviceName: 'later' });
    await expect(sut.startAll()).rejects.toThrow(
      new ServiceFailedError('broken', new Error('no disk')),
    );
    expect(sut.states().map((s) => s.state)).toEqual(['Running', 'Failed', 'New']);
    expect(readiness(sut)).toEqual({
      ready: false,
      message: 'Some services are not Running:\nNew: 1\nFailed: 1\n',
    });
  });

  it('fails a service whose running() rejects and tells the listeners', async () => {
    const sut = new ServiceRegistry({}, quiet);
    const failures: string[] = [];
    sut.onFailure((e) => failures.push(e.message));
    sut.register({
      serviceName: 'worker',
      running: async () => Promise.reject(new Error('lost etcd')),
    });
    await sut.startAll();
    await expect.poll(() => failures).toEqual(['service worker failed: lost etcd']);
    expect(sut.states()).toEqual([{ name: 'worker', state: 'Failed' }]);
  });

  it('aborts running() on stop and waits for it before stopping()', async () => {
    const events: string[] = [];
    const sut = new ServiceRegistry({}, quiet);
    sut.register(
      recorder(events, 'loop', {
        running: (signal) =>
          new Promise<void>((resolve) =>
            signal.addEventListener('abort', () => {
              events.push('loop aborted');
              resolve();
            }),
          ),
      }),
    );
    await sut.startAll();
    await sut.stopAll();
    expect(events).toEqual(['start loop', 'loop aborted', 'stop loop']);
    expect(sut.states()).toEqual([{ name: 'loop', state: 'Terminated' }]);
  });

  it('stops one service on request, Stopping at once, leaving the others Running', async () => {
    const events: string[] = [];
    const sut = new ServiceRegistry({ a: ['b'], b: [] }, quiet);
    sut.register(recorder(events, 'a'));
    sut.register(recorder(events, 'b'));
    await sut.startAll();
    expect(sut.stateOf('a')).toBe('Running');
    const stopped = sut.stopService('a');
    expect(sut.stateOf('a')).toBe('Stopping');
    await stopped;
    expect(sut.states()).toEqual([
      { name: 'b', state: 'Running' },
      { name: 'a', state: 'Terminated' },
    ]);
    expect(sut.stateOf('nope')).toBeUndefined();
    await sut.stopAll();
    expect(events).toEqual(['start b', 'start a', 'stop a', 'stop b']);
  });

  it('refuses to register the same name twice', () => {
    const sut = new ServiceRegistry({}, quiet);
    sut.register({ serviceName: 'x' });
    expect(() => sut.register({ serviceName: 'x' })).toThrow('service x is registered twice');
  });
});
