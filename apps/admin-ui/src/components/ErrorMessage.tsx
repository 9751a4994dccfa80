import { ApiError } from '../api/http';

/** An error as the server gave it, announced to screen readers. */
export function ErrorMessage({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  const text =
    error instanceof ApiError
      ? `${error.status}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <p className="error" role="alert">
      {prefix ? `${prefix}: ` : ''}
      {text}
    </p>
  );
}
