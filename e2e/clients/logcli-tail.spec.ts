import { describe, expect, it } from 'vitest';
import { nowNs, pushOk } from '../support/loki-api';
import { LogcliTail } from '../support/logcli-tail';
import { eventually, serverForAll } from '../support/server';

async function push(url: string, labels: Record<string, string>, lines: string[]): Promise<void> {
  const t = nowNs();
  await pushOk(url, [{ stream: labels, values: lines.map((l, i) => [String(t + BigInt(i)), l]) }]);
}

// `logcli query --tail '{app="shop"} | logfmt'` against the server process: the lines already
// there first, then each new line printed as it is pushed, until Ctrl-C.
describe('logcli query --tail', () => {
  const server = serverForAll();

  it('prints the last lines, then keeps printing new ones as they are pushed', async () => {
    await push(server().url, { app: 'shop' }, [
      'level=info msg="before 1"',
      'level=info msg="before 2"',
    ]);
    const tail = await LogcliTail.open(server().url, {
      query: '{app="shop"} | logfmt | level!="debug"',
      startNs: nowNs() - 3_600_000_000_000n,
    });
    await eventually(async () => (tail.printed.length === 2 ? true : undefined), 'the past lines');
    expect(tail.printed[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \{app="shop", .*level="info".*\} level=info msg="before 1"$/,
    );
    for (let i = 0; i < 5; i++) {
      await push(server().url, { app: 'shop', pod: `p${i}` }, [
        `level=warn msg="live ${i}"`,
        'level=debug msg=skipped',
      ]);
      await eventually(
        async () => (tail.printed.some((l) => l.endsWith(`msg="live ${i}"`)) ? true : undefined),
        `live line ${i}`,
        5000,
      );
    }
    expect(tail.printed.map((l) => l.slice(l.indexOf('} ') + 2))).toEqual([
      'level=info msg="before 1"',
      'level=info msg="before 2"',
      ...[0, 1, 2, 3, 4].map((i) => `level=warn msg="live ${i}"`),
    ]);
    expect(tail.warnings).toEqual([]);
    await tail.interrupt();
  });
});
