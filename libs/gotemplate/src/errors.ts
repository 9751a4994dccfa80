/** A template parse error (at compile) or execution error (at run), with Go's message text. */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}
