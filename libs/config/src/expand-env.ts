/**
 * Replaces `${VAR}` and `${VAR:-default}` in config text with environment values, as Loki does
 * with `-config.expand-env=true`. An unset variable without a default becomes the empty string.
 */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback?: string) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      return fallback ?? '';
    },
  );
}
