export { formatGoTime, formatRfc3339 } from '@logsvc/api';
