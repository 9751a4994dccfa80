import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { TargetError } from '../src/targets';
import type { LifecycleService } from '../src/lifecycle/lifecycle-service';
import { ServiceRegistry } from '../src/lifecycle/service-registry';
import { startTestServer } from './harness';

/** A service whose starting and stopping wait until the test releases them. */
class Gate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.release = resolve));
  open() {
    this.release();
  }
}
const startGate = new Gate();
const stopGate = new Gate();

@Injectable()
class SlowService implements LifecycleService, OnModuleInit {
  readonly serviceName = 'slow';
  constructor(@Inject(ServiceRegistry) private readonly registry: ServiceRegistry) {}
  onModuleInit() {
    this.registry.register(this);
  }
  starting() {
    return startGate.opened;
  }
  stopping() {
    return stopGate.opened;
  }
}

@Module({ providers: [SlowService] })
class SlowModule {}

const text = async (url: string) => {
  const res = await fetch(url);
  return `${res.status} ${await res.text()}`;
};

describe('service lifecycle over HTTP', () => {
  it('reports 503 while starting, ready when Running, 503 while stopping, Terminated at the end', async () => {
    const sut = await startTestServer({
      noStart: true,
      extraModules: [SlowModule],
      config: { target: 'querier' },
    });
    const starting = sut.server.start();
    // The server listens first, then the other services start.
    await expect
      .poll(() => sut.server.registry.states().find((s) => s.name === 'slow')?.state)
      .toBe('Starting');
    const url = sut.server.url();
    expect(await text(`${url}/ready`)).toBe('503 Some services are not Running:\nStarting: 1\n');
    expect(await text(`${url}/services`)).toContain('slow => Starting\n');

    startGate.open();
    await starting;
    expect(await text(`${url}/ready`)).toBe('200 ready\n');

    const stopping = sut.server.stop();
    await expect
      .poll(() => sut.server.registry.states().find((s) => s.name === 'slow')?.state)
      .toBe('Stopping');
    expect(await text(`${url}/ready`)).toBe('503 Application is stopping\n');
    stopGate.open();
    await stopping;
    const states = sut.server.registry.states().map((s) => s.state);
    expect(states.length).toBeGreaterThan(3);
    expect(new Set(states)).toEqual(new Set(['Terminated']));
    await expect(fetch(`${url}/ready`)).rejects.toThrow();
    await sut.close();
  });

  it('stops the connections, the query path, the tails and the process report in dependency order', async () => {
    const sut = await startTestServer({ config: { target: 'all' } });
    const { registry } = sut.server;
    const seen: string[] = [];
    registry.onStateChange(() => {
      for (const { name, state } of registry.states()) {
        const event = `${name} ${state}`;
        if ((state === 'Stopping' || state === 'Terminated') && !seen.includes(event)) {
          seen.push(event);
        }
      }
    });
    await sut.close();
    const at = (event: string) => {
      expect(seen, event).toContain(event);
      return seen.indexOf(event);
    };
    // Each first one is Terminated before the second starts stopping.
    const before: [string, string][] = [
      ['ui-tail-bridge', 'tail-sockets'],
      ['tail-sockets', 'querier'],
      ['query-path', 'querier'],
      ['query-path', 'query-frontend'],
      ['querier', 'client-pools'],
      ['ingester', 'client-pools'],
      ['ruler', 'client-pools'],
      ['client-pools', 'process-report'],
      ['ring', 'process-report'],
      ['process-report', 'server'],
    ];
    for (const [first, second] of before) {
      expect(at(`${first} Terminated`), `${first} before ${second}`).toBeLessThan(
        at(`${second} Stopping`),
      );
    }
  });
});

describe('-target selection', () => {
  it('-target=querier loads only the querier and the internal services', async () => {
    const sut = await startTestServer({ config: { target: 'querier' } });
    try {
      expect(sut.server.components).toEqual(['querier']);
      const body = await (await fetch(`${sut.url}/services`)).text();
      expect(body).toBe(
        'server => Running\nprocess-report => Running\nruntime-config => Running\n' +
          'client-pools => Running\nring => Running\nquerier => Running\ntail-sockets => Running\n',
      );
    } finally {
      await sut.close();
    }
  });

  it('accepts a comma-separated list of targets', async () => {
    const sut = await startTestServer({ config: { target: 'querier,distributor,ingester' } });
    try {
      expect(sut.server.components).toEqual(['distributor', 'ingester', 'querier']);
    } finally {
      await sut.close();
    }
  });

  it('-target=read runs the query frontend and the querier', async () => {
    const sut = await startTestServer({ config: { target: 'read' } });
    try {
      const body = await (await fetch(`${sut.url}/services`)).text();
      expect(body).toBe(
        'server => Running\nprocess-report => Running\nruntime-config => Running\n' +
          'client-pools => Running\nring => Running\nquery-frontend => Running\n' +
          'querier => Running\nquery-path => Running\ntail-sockets => Running\n',
      );
    } finally {
      await sut.close();
    }
  });

  it('refuses a query frontend without a querier, and a distributor without an ingester', async () => {
    await expect(startTestServer({ config: { target: 'query-frontend' } })).rejects.toThrow(
      TargetError,
    );
    await expect(startTestServer({ config: { target: 'distributor' } })).rejects.toThrow(
      'the distributor has no ingesters to reach',
    );
  });

  it('refuses an unknown target before listening', async () => {
    await expect(startTestServer({ config: { target: 'querier,frobnicator' } })).rejects.toThrow(
      TargetError,
    );
    await expect(startTestServer({ config: { target: 'frobnicator' } })).rejects.toThrow(
      'unrecognised target: "frobnicator"',
    );
  });
});
