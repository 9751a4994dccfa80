/** A configuration problem: bad YAML, unknown key, bad value or bad flag. The message names the key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
