import { s } from '../schema';

export const CONDITION_TYPES = ['Ready', 'Progressing', 'Degraded'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export const conditionSchema = s.object(
  {
    type: s.string('Ready, Progressing or Degraded.', { required: true }),
    status: s.enum(['True', 'False', 'Unknown'], 'Condition status.', { required: true }),
    reason: s.string('CamelCase reason.', { required: true }),
    message: s.string('What is going on, for people.', { required: true }),
    lastTransitionTime: s.string('When status last changed (RFC 3339).', { required: true }),
    observedGeneration: s.int('The generation the condition is about.'),
  },
  'A condition, as in metav1.Condition.',
  { typeName: 'Condition' },
);

const componentStatus = s.object(
  {
    kind: s.string('Deployment or StatefulSet.', { required: true }),
    replicas: s.int('Desired replicas.', { required: true }),
    readyReplicas: s.int('Ready pods.', { required: true }),
    updatedReplicas: s.int('Pods running the current template.', { required: true }),
  },
  'One component.',
  { typeName: 'ComponentStatus' },
);

export const statusSchema = s.object(
  {
    observedGeneration: s.int('The spec generation this status describes.'),
    lastObservedTime: s.string(
      'When the operator last read this LogService and its objects (RFC 3339); refreshed at least every resync period, so an older one means no operator is watching.',
    ),
    version: s.string('The logsvc version every pod runs once the rollout is over.'),
    conditions: s.array(conditionSchema, 'Ready, Progressing, Degraded.'),
    components: s.map('component', componentStatus, 'Replicas per component.'),
    rollout: s.object(
      {
        phase: s.string('Idle, Replacing, Waiting or Halted.', { required: true }),
        pod: s.string('The ingester being replaced.'),
        message: s.string('Why it waits or halted.'),
      },
      'The ring-aware ingester rollout.',
      { typeName: 'RolloutStatus' },
    ),
  },
  'What the operator observed.',
  { typeName: 'LogServiceStatus' },
);
