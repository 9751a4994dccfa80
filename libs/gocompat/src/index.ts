// Go standard-library (and Prometheus / go-humanize / datasize) behaviour that Loki exposes:
// parsers, formatters and their error texts. One implementation of each, named after Go's.
export * from './go-time';
export * from './go-strconv';
export * from './go-duration';
export * from './go-humanize';
export * from './datasize';
export * from './go-regexp';
export * from './go-quote';
export * from './go-json';
export * from './go-strings';
