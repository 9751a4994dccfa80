// Go standard-library behaviour that Loki's API exposes: parsers, formatters and their error texts.
export * from './go-time';
export * from './go-strconv';
