import type { StringFormat } from './nodes';

// Formats of string fields, as regular expressions shared by the CRD (OpenAPI `pattern`) and the
// validator. Durations and sizes are what logsvc's config accepts (docs/configuration.md).

const DURATION = '^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h|d|w|y))+)$';
const SIZE = '^[0-9]+(\\.[0-9]+)?([KMGTPE]i?B?)?$';
const QUANTITY = '^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$';
const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const HOST_PORT = '^[^\\s:/]+:[0-9]{1,5}$';

export const FORMAT_PATTERNS: Readonly<Record<StringFormat, string>> = {
  duration: DURATION,
  size: SIZE,
  quantity: QUANTITY,
  'dns-label': DNS_LABEL,
  'host-port': HOST_PORT,
};

export const FORMAT_EXAMPLES: Readonly<Record<StringFormat, string>> = {
  duration: 'a duration like 90s, 15m, 1h30m or 744h',
  size: 'a size like 512KB, 4MB or 1GiB',
  quantity: 'a Kubernetes quantity like 500m, 2, 512Mi or 10Gi',
  'dns-label': 'a DNS label (lower case letters, digits and -)',
  'host-port': 'host:port',
};
