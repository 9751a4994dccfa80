/**
 * Corpus queries that Grafana's grammar (`@grafana/lezer-logql` 0.3.0) parses without error
 * nodes but that we reject, with the reason. Besides these, every corpus entry whose expected
 * error is one of Loki's semantic checks (`parse error : ...`, made after the grammar: unwrap
 * rules, grouping rules, parameters, empty-compatible matchers, binary operand types, regex
 * validity) is an expected disagreement: a grammar cannot make those checks.
 * docs/logql.md lists the same.
 */
export const LEZER_DISAGREEMENTS: ReadonlyArray<{ q: string; reason: string }> = [
  {
    q: '{app="\\q"}',
    reason: 'invalid escape in a Go string; lezer does not check string escapes',
  },
  ...['{a="xx\\q"}', '{a="\\400"}', '{a="\\400\\q"}', '{a="\\U00110000"}'].map((q) => ({
    q,
    reason: 'invalid escape or code point in a Go string; lezer does not check string escapes',
  })),
  {
    q: 'rate({app="foo"}[1.5m])',
    reason: 'ranges use Prometheus durations, which have no fractions; lezer accepts any duration',
  },
  {
    q: '0x10',
    reason: 'LogQL numbers are decimal floats; lezer accepts hex literals',
  },
];
