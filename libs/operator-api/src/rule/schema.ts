import { s } from '../schema';
import { conditionSchema } from '../logservice/status';

// The LogServiceRule resource: one rule file (Prometheus groups of alerting and recording rules,
// as the ruler API and Loki's rule files take them) for one tenant, selected by label from a
// LogService's `spec.rules`.

const rule = s.object(
  {
    alert: s.string('Name of an alerting rule (set this or `record`).'),
    record: s.string('Metric name of a recording rule (set this or `alert`).'),
    expr: s.string('The LogQL expression (a metric query).', { required: true, minLength: 1 }),
    for: s.format('duration', 'Alerting rules: how long the condition must hold before firing.'),
    labels: s.map('label', s.string('Label value.'), 'Labels added to the alert or series.'),
    annotations: s.map(
      'annotation',
      s.string('Annotation value (may be a template).'),
      'Alerting rules: annotations of the alert.',
    ),
  },
  'An alerting or a recording rule, as in a Prometheus rule file.',
  { typeName: 'RuleSpec' },
);

const group = s.object(
  {
    name: s.string('Group name, unique within the resource.', { required: true, minLength: 1 }),
    interval: s.format('duration', "How often the group runs; default: the ruler's (1m)."),
    limit: s.int('At most this many alerts or series per evaluation (0: no limit).', {
      minimum: 0,
    }),
    rules: s.array(rule, 'The rules, evaluated in order.', { required: true, minItems: 1 }),
  },
  'A rule group.',
  { typeName: 'RuleGroupSpec' },
);

export const ruleSpecSchema = s.object(
  {
    tenant: s.string(
      'The tenant (`X-Scope-OrgID`) whose logs the rules query and for whom they run.',
      {
        required: true,
        minLength: 1,
      },
    ),
    groups: s.array(group, 'Rule groups.', { required: true, minItems: 1 }),
  },
  'Rules the ruler of every LogService that selects this resource runs.',
  { typeName: 'LogServiceRuleSpec' },
);

export const ruleStatusSchema = s.object(
  {
    observedGeneration: s.int('The spec generation this status describes.'),
    conditions: s.array(
      { ...conditionSchema, typeName: 'RuleCondition' },
      "Valid: the rules parse and pass the ruler's checks (else False, reason InvalidRules, naming the rule); only valid ones reach a ruler.",
    ),
  },
  'What the operator observed.',
  { typeName: 'LogServiceRuleStatus' },
);
