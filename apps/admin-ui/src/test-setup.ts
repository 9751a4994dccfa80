// Setup of the admin UI's component tests (jsdom): generous waits for a loaded machine, every
// test's page unmounted and stubbed globals (fetch, WebSocket) restored after it, and the
// browser APIs uPlot reads that jsdom lacks (matchMedia; a 2D canvas that draws nothing).
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// findBy*/waitFor wait up to 10 s: on a loaded 2-core machine a render can take seconds.
configure({ asyncUtilTimeout: 10_000 });

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Every method of the fake context does nothing; measureText answers a width.
const noop = new Proxy(
  {},
  {
    get: (_t, key) =>
      key === 'measureText' ? () => ({ width: 10 }) : key === 'canvas' ? undefined : () => {},
    set: () => true,
  },
);
HTMLCanvasElement.prototype.getContext = (() => noop) as never;

// Paths the fake context would draw.
if (typeof globalThis.Path2D === 'undefined') {
  globalThis.Path2D = class {
    addPath() {}
    closePath() {}
    moveTo() {}
    lineTo() {}
    bezierCurveTo() {}
    quadraticCurveTo() {}
    arc() {}
    arcTo() {}
    ellipse() {}
    rect() {}
    roundRect() {}
  } as unknown as typeof Path2D;
}
