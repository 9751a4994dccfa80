import { parseLabels, type LogEntry, type PushRequest } from '@logsvc/api';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_LIMITS, type PushLimits } from './limits';
import { validatePush } from './validate';

const NOW = 1700000000000000000n; // 2023-11-14T22:13:20Z
const limits = (over: Partial<PushLimits> = {}): PushLimits => ({
  ...DEFAULT_PUSH_LIMITS,
  discover_log_levels: false,
  ...over,
});
const entry = (line: string, ts = NOW, sm: { name: string; value: string }[] = []): LogEntry => ({
  timestampNs: ts,
  line: Buffer.from(line),
  structuredMetadata: sm,
});
const push = (labels: string, ...entries: LogEntry[]): PushRequest => ({
  streams: [{ labels: parseLabels(labels), entries }],
});

describe('validatePush', () => {
  it('answers 422 for a request without streams', () => {
    const r = validatePush({ streams: [] }, limits(), 't', NOW);
    expect(r.error).toMatchObject({
      kind: 'unprocessable',
      message: 'error at least one valid stream is required for ingestion',
    });
  });

  it("validates a stream's labels again under other limits, even through its memo", () => {
    const memo = { key: null, value: undefined };
    const pushed = (): PushRequest => ({
      streams: [{ labels: parseLabels('{app="api"}'), entries: [entry('x')], memo }],
    });
    const text = (l: PushLimits) =>
      validatePush(pushed(), l, 't', NOW).request.streams[0].labelsText;
    const discovering = limits();
    const plain = limits({ discover_service_name: [] });
    expect(text(discovering)).toBe('{app="api", service_name="api"}');
    expect(text(discovering)).toBe('{app="api", service_name="api"}');
    expect(text(plain)).toBe('{app="api"}');
    expect(text(discovering)).toBe('{app="api", service_name="api"}');
  });

  it('skips streams without entries silently', () => {
    const r = validatePush(
      { streams: [{ labels: parseLabels('{a="b"}'), entries: [] }] },
      limits(),
      't',
      NOW,
    );
    expect(r.error).toBeUndefined();
    expect(r.request.streams).toEqual([]);
  });

  it('adds service_name from discover_service_name, else unknown_service', () => {
    const r = validatePush(
      {
        streams: [
          ...push('{app="api", job="j"}', entry('x')).streams,
          ...push('{foo="bar"}', entry('y')).streams,
        ],
      },
      limits(),
      't',
      NOW,
    );
    expect(r.request.streams[0].labels).toEqual(
      parseLabels('{app="api", job="j", service_name="api"}'),
    );
    expect(r.request.streams[1].labels).toEqual(
      parseLabels('{foo="bar", service_name="unknown_service"}'),
    );
    const off = validatePush(
      push('{foo="bar"}', entry('y')),
      limits({ discover_service_name: [] }),
      't',
      NOW,
    );
    expect(off.request.streams[0].labels).toEqual(parseLabels('{foo="bar"}'));
  });

  it('keeps valid streams and reports the invalid ones with grouped messages and counters', () => {
    const req: PushRequest = {
      streams: [
        ...push('{app="ok"}', entry('good'), entry('x'.repeat(20))).streams,
        ...push('{app="old"}', entry('old', NOW - 8n * 24n * 3600n * 1_000_000_000n)).streams,
      ],
    };
    const r = validatePush(req, limits({ max_line_size: 10 }), 'tenant1', NOW);
    expect(r.request.streams).toHaveLength(1);
    expect(r.request.streams[0].entries.map((e) => e.line.toString())).toEqual(['good']);
    expect(r.acceptedLines).toBe(1);
    expect(r.acceptedBytes).toBe(4);
    expect(r.error?.httpStatus).toBe(400);
    expect(r.error?.message).toBe(
      `2 errors like: Max entry size '10' bytes exceeded for stream '{app="ok", service_name="ok"}' while adding an entry with length '20' bytes; ` +
        `entry for stream '{app="old", service_name="old"}' has timestamp too old: 2023-11-06T22:13:20Z, oldest acceptable timestamp is: 2023-11-07T22:13:20Z`,
    );
    expect(Object.fromEntries(r.discarded.byReason)).toEqual({
      line_too_long: { lines: 1, bytes: 20 },
      greater_than_max_sample_age: { lines: 1, bytes: 3 },
    });
  });

  it('refuses timestamps before 1970 even with reject_old_samples off (they could not be flushed)', () => {
    const r = validatePush(
      push('{a="b"}', entry('before', -5n), entry('epoch', 0n)),
      limits({ reject_old_samples: false }),
      't',
      NOW,
    );
    expect(r.request.streams[0].entries.map((e) => e.line.toString())).toEqual(['epoch']);
    expect(r.error?.message).toBe(
      `entry for stream '{a="b", service_name="unknown_service"}' has timestamp too old: 1969-12-31T23:59:59Z, oldest acceptable timestamp is: 1970-01-01T00:00:00Z`,
    );
  });

  it('rejects timestamps too far in the future, unless within creation_grace_period', () => {
    const r = validatePush(
      push(
        '{a="b"}',
        entry('soon', NOW + 5n * 60n * 1_000_000_000n),
        entry('late', NOW + 11n * 60n * 1_000_000_000n),
      ),
      limits(),
      't',
      NOW,
    );
    expect(r.request.streams[0].entries.map((e) => e.line.toString())).toEqual(['soon']);
    expect(r.error?.message).toBe(
      `entry for stream '{a="b", service_name="unknown_service"}' has timestamp too new: 2023-11-14T22:24:20Z`,
    );
  });

  it('accepts old samples when reject_old_samples is off', () => {
    const r = validatePush(
      push('{a="b"}', entry('x', 1n)),
      limits({ reject_old_samples: false }),
      't',
      NOW,
    );
    expect(r.error).toBeUndefined();
  });

  it('truncates instead of rejecting with max_line_size_truncate', () => {
    const r = validatePush(
      push('{a="b"}', entry('abcdefghij')),
      limits({ max_line_size: 4, max_line_size_truncate: true }),
      't',
      NOW,
    );
    expect(r.error).toBeUndefined();
    expect(r.request.streams[0].entries[0].line.toString()).toBe('abcd');
    expect(r.truncatedLines).toBe(1);
  });

  it.each<[string, Partial<PushLimits>, string, string]>([
    [
      '{a="1", b="2", c="3"}',
      { max_label_names_per_series: 2 },
      'max_label_names_per_series',
      `entry for stream '{a="1", b="2", c="3", service_name="unknown_service"}' has 3 label names; limit 2`,
    ],
    [
      '{abcdef="1"}',
      { max_label_name_length: 5 },
      'label_name_too_long',
      `stream '{abcdef="1", service_name="unknown_service"}' has label name too long: 'abcdef'`,
    ],
    [
      '{a="123456"}',
      { max_label_value_length: 5 },
      'label_value_too_long',
      `stream '{a="123456", service_name="unknown_service"}' has label value too long: '123456'`,
    ],
    [
      '{}',
      { discover_service_name: [] },
      'missing_labels',
      'error at least one label pair is required per stream',
    ],
  ])('rejects %s by %j', (labels, over, reason, message) => {
    const r = validatePush(push(labels, entry('x'), entry('y')), limits(over), 't', NOW);
    expect(r.request.streams).toEqual([]);
    expect(r.error?.message).toBe(message);
    expect(r.discarded.byReason.get(reason)).toEqual({ lines: 2, bytes: 2 });
  });

  it('does not count service_name against max_label_names_per_series', () => {
    const r = validatePush(
      push('{a="1", b="2", service_name="s"}', entry('x')),
      limits({ max_label_names_per_series: 2 }),
      't',
      NOW,
    );
    expect(r.error).toBeUndefined();
  });

  it('rejects invalid label names and duplicates in programmatic requests', () => {
    const bad: PushRequest = {
      streams: [{ labels: [{ name: 'a-b', value: '1' }], entries: [entry('x')] }],
    };
    expect(validatePush(bad, limits(), 't', NOW).error?.message).toBe(
      `Error parsing labels '{a-b="1", service_name="unknown_service"}' with error: invalid label name "a-b"`,
    );
    const dup: PushRequest = {
      streams: [
        {
          labels: [
            { name: 'a', value: '1' },
            { name: 'a', value: '2' },
            { name: 'service_name', value: 's' },
          ],
          entries: [entry('x')],
        },
      ],
    };
    expect(validatePush(dup, limits(), 't', NOW).error?.message).toBe(
      `stream '{a="1", a="2", service_name="s"}' has duplicate label name: 'a'`,
    );
  });

  it('enforces the structured metadata limits with Loki messages', () => {
    const sm = [
      { name: 'k1', value: 'v1' },
      { name: 'k2', value: 'v2' },
    ];
    const s = `{a="b", service_name="unknown_service"}`;
    const errorWith = (over: Partial<PushLimits>) =>
      validatePush(push('{a="b"}', entry('x', NOW, sm)), limits(over), 't', NOW).error?.message;
    expect(errorWith({ allow_structured_metadata: false })).toBe(
      `stream '${s}' includes structured metadata, but this feature is disallowed. Please see \`limits_config.allow_structured_metadata\` or contact your Loki administrator to enable it.`,
    );
    expect(errorWith({ max_structured_metadata_size: 7 })).toBe(
      `stream '${s}' has structured metadata too large: '8' bytes, limit: '7' bytes. Please see \`limits_config.max_structured_metadata_size\` or contact your Loki administrator to increase it.`,
    );
    expect(errorWith({ max_structured_metadata_entries_count: 1 })).toBe(
      `stream '${s}' has too many structured metadata labels: '2', limit: '1'. Please see \`limits_config.max_structured_metadata_entries_count\` or contact your Loki administrator to increase it.`,
    );
  });

  it('normalizes structured metadata names', () => {
    const r = validatePush(
      push(
        '{a="b"}',
        entry('x', NOW, [
          { name: 'http.method', value: 'GET' },
          { name: '1st', value: 'y' },
        ]),
      ),
      limits(),
      't',
      NOW,
    );
    expect(r.request.streams[0].entries[0].structuredMetadata).toEqual([
      { name: 'http_method', value: 'GET' },
      { name: 'key_1st', value: 'y' },
    ]);
  });

  it('adds detected_level structured metadata when discover_log_levels is on', () => {
    const on = limits({ discover_log_levels: true });
    const r = validatePush(
      push(
        '{a="b"}',
        entry('level=warn msg=x'),
        entry('{"lvl":"ERR","level":"debug"}'),
        entry('plain'),
        entry('x', NOW, [{ name: 'severity_number', value: '9' }]),
      ),
      on,
      't',
      NOW,
    );
    expect(
      r.request.streams[0].entries.map(
        (e) => e.structuredMetadata.find((p) => p.name === 'detected_level')?.value,
      ),
    ).toEqual(['warn', 'debug', 'unknown', 'info']);
    const fromLabel = validatePush(push('{a="b", level="Notice"}', entry('error!')), on, 't', NOW);
    expect(fromLabel.request.streams[0].entries[0].structuredMetadata).toEqual([
      { name: 'detected_level', value: 'Notice' },
    ]);
    const kept = validatePush(
      push('{a="b"}', entry('error', NOW, [{ name: 'detected_level', value: 'x' }])),
      on,
      't',
      NOW,
    );
    expect(kept.request.streams[0].entries[0].structuredMetadata).toEqual([
      { name: 'detected_level', value: 'x' },
    ]);
    const noSm = validatePush(
      push('{a="b"}', entry('error')),
      { ...on, allow_structured_metadata: false },
      't',
      NOW,
    );
    expect(noSm.request.streams[0].entries[0].structuredMetadata).toEqual([]);
  });
});
